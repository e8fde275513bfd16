// A user message's attachment parts as the chat shows them: every text part after the first that
// starts with the one attachment header the host writes (src/core/attachments/attachment-text.ts).
import { ATTACHMENT_HEADER } from '../../../src/core/attachments/attachment-text';
import { arr, obj, str } from './fields';

export interface AttachmentPart {
  title: string;
  body: string;
}

/** An attachment's title and text, when this content part is one. */
export function attachmentPart(part: unknown): AttachmentPart | undefined {
  const text = obj(part)?.type === 'text' ? str(obj(part)?.text) : undefined;
  const m = text === undefined ? null : ATTACHMENT_HEADER.exec(text);
  return m ? { title: m[1]!, body: text!.slice(m[0].length) } : undefined;
}

/** The attachment parts of a message's content (the first part is always the user's own text). */
export function attachmentParts(content: unknown): AttachmentPart[] {
  return arr(content).flatMap((c, i) => {
    const part = i === 0 ? undefined : attachmentPart(c);
    return part ? [part] : [];
  });
}
