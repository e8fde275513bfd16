// The user's message as the log records it: the text, then each attachment's text, then its images,
// with the skills the text triggered and what hooks or the host tell the model alongside
// (extended_content). Apart from conversation.ts so the shape of what the model saw is read in one place.
import type { CreateFields } from '../events';
import { renderSkill, type Skill } from '../skills/skills';

export interface UserMessageParts {
  images?: readonly string[];
  attachments?: readonly string[];
  /** Told to the model with the message, not the user's words (OpenHands' extended_content). */
  context?: readonly string[];
}

export function userMessageFields(
  text: string,
  opts: UserMessageParts,
  skills: readonly Skill[],
): CreateFields<'MessageEvent'> {
  const content: { type: 'text'; text: string }[] = [{ type: 'text', text }];
  for (const a of opts.attachments ?? []) content.push({ type: 'text', text: a });
  const llm_message = opts.images?.length
    ? {
        role: 'user' as const,
        content: [...content, { type: 'image' as const, image_urls: [...opts.images] }],
      }
    : { role: 'user' as const, content };
  return {
    source: 'user',
    llm_message,
    activated_skills: skills.map((s) => s.name),
    extended_content: [...skills.map((s) => renderSkill(s)), ...(opts.context ?? [])].map((t) => ({
      type: 'text' as const,
      text: t,
    })),
  } as CreateFields<'MessageEvent'>;
}
