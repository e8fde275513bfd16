// Safe reads of event JSON. Events reach the view as loosely validated JSON (only `kind` and `id` are
// checked), so every renderer goes through these: a wrong type yields a default, never a throw.
import type { EventJson } from '../../../src/protocol/messages';

export type Json = Record<string, unknown>;

export function obj(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Text parts of an OpenHands content array (`[{type:'text', text}]`), joined. */
export function contentText(v: unknown, sep = '\n'): string {
  const parts: string[] = [];
  for (const c of arr(v)) {
    const o = obj(c);
    if (o && o.type === 'text' && typeof o.text === 'string') parts.push(o.text);
  }
  return parts.join(sep);
}

/** Number of image parts (shown as a note: the view never loads images from events). */
export function imageCount(v: unknown): number {
  let n = 0;
  for (const c of arr(v)) if (obj(c)?.type === 'image') n += arr(obj(c)?.image_urls).length || 1;
  return n;
}

export function source(e: EventJson): string {
  return str(e.source) ?? '';
}

/** The id of the ActionEvent a result belongs to (observations and rejections carry `action_id`). */
export function actionIdOf(e: EventJson): string | undefined {
  return str(e.action_id);
}

export function toolCallIdOf(e: EventJson): string | undefined {
  return str(e.tool_call_id);
}

/** Splits `<think>…</think>` blocks (some models inline them in the thought) from the visible text. */
export function splitThink(text: string): { visible: string; thinking: string } {
  const thinking: string[] = [];
  const visible = text.replace(/<think>([\s\S]*?)(?:<\/think>|$)/g, (_m, inner: string) => {
    thinking.push(inner.trim());
    return '';
  });
  return { visible: visible.trim(), thinking: thinking.filter(Boolean).join('\n\n') };
}
