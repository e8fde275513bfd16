// The last step before a request leaves: image parts of the prompt become what the model can take.
// A stored image (logbook-image:...) is loaded as a data URL; for a model that takes no images every
// image part becomes a short note instead, so the model knows something was attached and left out.
import type { ChatMessage, ChatTextPart, ChatUserMessage } from '../events/to-messages';
import { storedImageName } from './image-store';

export interface ImageProjection {
  /** Whether the model takes image content. */
  supportsImages: boolean;
  /** Data URL of a stored image; undefined when it cannot be read. */
  load(url: string): Promise<string | undefined>;
}

export const IMAGE_LEFT_OUT_NOTE =
  '[An image was attached here, but the model in use does not take images, so it was left out.]';
export const IMAGE_MISSING_NOTE =
  "[An image was attached here, but it is missing from the conversation's folder, so it was left out.]";

/** Returns messages whose image parts the model can take; messages without images are the same objects. */
export async function projectImages(
  messages: readonly ChatMessage[],
  how: ImageProjection,
): Promise<ChatMessage[]> {
  const out: ChatMessage[] = [];
  const loaded = new Map<string, Promise<string | undefined>>();
  for (const m of messages) {
    if (
      m.role !== 'user' ||
      typeof m.content === 'string' ||
      !m.content.some((p) => p.type === 'image_url')
    ) {
      out.push(m);
      continue;
    }
    const parts: Exclude<ChatUserMessage['content'], string> = [];
    for (const p of m.content) {
      if (p.type !== 'image_url') {
        parts.push(p);
        continue;
      }
      if (!how.supportsImages) {
        parts.push(note(IMAGE_LEFT_OUT_NOTE));
        continue;
      }
      const url = p.image_url.url;
      if (!storedImageName(url)) {
        parts.push(p);
        continue;
      }
      if (!loaded.has(url)) loaded.set(url, how.load(url));
      const data = await loaded.get(url)!;
      parts.push(data ? { type: 'image_url', image_url: { url: data } } : note(IMAGE_MISSING_NOTE));
    }
    const images = parts.some((p) => p.type === 'image_url');
    out.push({
      role: 'user',
      content: images ? parts : parts.map((p) => (p as ChatTextPart).text).join('\n\n'),
    });
  }
  return out;
}

const note = (text: string): ChatTextPart => ({ type: 'text', text });
