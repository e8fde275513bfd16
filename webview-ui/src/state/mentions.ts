// Mention completion and stored images, as the host answers them. Only the newest completion
// request's answer is kept (an older one arriving late is dropped); images are cached by URL.
import { signal } from '@preact/signals';
import type { MentionItem } from '../../../src/protocol/messages';
import { send } from '../vscode-api';

const QUERY_DEBOUNCE_MS = 60;

export const mentionItems = signal<{ requestId: number; items: MentionItem[] } | null>(null);
let nextRequest = 1;
let latest = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Asks the host for completions of `query` (the MCP prompts, for `prompts`), after a short pause in typing. */
export function queryMentions(query: string, prompts = false): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    latest = nextRequest++;
    send({ type: 'mentionQuery', requestId: latest, query, ...(prompts ? { prompts: true as const } : {}) });
  }, QUERY_DEBOUNCE_MS);
}

export function cancelMentions(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  latest = nextRequest++; // answers still on their way are stale now
  mentionItems.value = null;
}

export function receiveMentions(requestId: number, items: MentionItem[]): void {
  if (requestId === latest) mentionItems.value = { requestId, items };
}

/** Data URLs of stored images by their `logbook-image:` URL; null: the host could not read it. */
export const images = signal<ReadonlyMap<string, string | null>>(new Map());
const asked = new Set<string>();

export function requestImage(conversationId: string, url: string): void {
  if (asked.has(url)) return;
  asked.add(url);
  send({ type: 'loadImage', conversationId, url });
}

export function receiveImage(url: string, dataUrl: string | null): void {
  if (!asked.has(url)) return; // never asked for: ignore
  images.value = new Map(images.value).set(url, dataUrl);
}
