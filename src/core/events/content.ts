/**
 * Message and content types of the OpenHands SDK wire format (snake_case JSON).
 * Objects are "loose": fields added by newer versions survive a parse/serialize round trip.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { DeepReadonly } from './freeze';

export const TextContentSchema = lazySchema(() =>
  z.looseObject({
    type: z.literal('text'),
    text: z.string(),
    cache_prompt: z.boolean().optional(),
  }),
);
export type TextContent = DeepReadonly<z.infer<typeof TextContentSchema>>;

export const ImageContentSchema = lazySchema(() =>
  z.looseObject({
    type: z.literal('image'),
    image_urls: z.array(z.string()),
    cache_prompt: z.boolean().optional(),
  }),
);
export type ImageContent = DeepReadonly<z.infer<typeof ImageContentSchema>>;

export const ContentSchema = lazySchema(() =>
  z.discriminatedUnion('type', [TextContentSchema, ImageContentSchema]),
);
export type Content = DeepReadonly<z.infer<typeof ContentSchema>>;

/** Anthropic-style extended thinking blocks, kept verbatim so they can be sent back. */
export const ThinkingBlockSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.looseObject({
      type: z.literal('thinking'),
      thinking: z.string(),
      signature: z.string().nullable().optional(),
    }),
    z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  ]),
);
export type ThinkingBlock = DeepReadonly<z.infer<typeof ThinkingBlockSchema>>;

/** A tool call exactly as the LLM produced it (`arguments` is the raw JSON text). */
export const MessageToolCallSchema = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    arguments: z.string(),
    // 'completion' (Chat Completions) or 'responses' (Responses API); open for newer origins.
    origin: z.string().optional(),
    responses_item_id: z.string().nullable().optional(),
  }),
);
export type MessageToolCall = DeepReadonly<z.infer<typeof MessageToolCallSchema>>;

export const RoleSchema = lazySchema(() => z.enum(['system', 'user', 'assistant', 'tool']));
export type Role = z.infer<typeof RoleSchema>;

export const MessageSchema = lazySchema(() =>
  z.looseObject({
    role: RoleSchema,
    content: z.array(ContentSchema),
    tool_calls: z.array(MessageToolCallSchema).nullable().optional(),
    tool_call_id: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
    reasoning_content: z.string().nullable().optional(),
    thinking_blocks: z.array(ThinkingBlockSchema).optional(),
  }),
);
export type Message = DeepReadonly<z.infer<typeof MessageSchema>>;

/** Concatenated text of the text parts (images are skipped). */
export function textOf(content: readonly Content[] | undefined | null, separator = '\n'): string {
  if (!content) return '';
  const parts: string[] = [];
  for (const c of content) if (c.type === 'text') parts.push(c.text);
  return parts.join(separator);
}
