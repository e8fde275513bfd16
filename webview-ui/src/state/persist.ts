// What survives the webview being hidden or reloaded (VS Code destroys a hidden webview's document;
// we do not ask it to retain it): the conversation id and header, the last seq held, the events
// themselves while they fit a budget, and the composer draft. On load the view asks the host only for events after
// that seq. Over the budget, only the id is kept and lastSeq is -1: the host resends (chunked).
import { z } from 'zod';
import { ConversationHeader, ViewEvent } from '../../../src/protocol/messages';
import { loadState, saveState } from '../vscode-api';
import { firstSeqHeld, header, held, lastSeqHeld, shownConversation } from './store';

const CACHE_BUDGET_CHARS = 4_000_000;
const DEBOUNCE_MS = 400;

const Saved = z.object({
  v: z.literal(1),
  conversationId: z.string().nullable(),
  header: ConversationHeader.nullable(),
  lastSeq: z.number().int().min(-1),
  /** seq of the first saved event (a long conversation is held from its newest events on) */
  firstSeq: z.number().int().min(0).default(0),
  events: z.array(ViewEvent),
  draft: z.string().max(100_000),
});
type Saved = z.infer<typeof Saved>;

const EMPTY: Saved = {
  v: 1,
  conversationId: null,
  header: null,
  lastSeq: -1,
  firstSeq: 0,
  events: [],
  draft: '',
};

let draft = '';
let overBudgetFor: string | null | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

export function restoreState(): Saved {
  const r = Saved.safeParse(loadState());
  if (!r.success) return EMPTY;
  draft = r.data.draft;
  // Events must run without a gap from firstSeq to lastSeq to be trusted; otherwise start over.
  const { events, firstSeq, lastSeq } = r.data;
  const whole =
    events.length > 0 && events.every((e, i) => e.seq === firstSeq + i) && events.at(-1)!.seq === lastSeq;
  return whole ? r.data : { ...r.data, lastSeq: -1, firstSeq: 0, events: [] };
}

export function savedDraft(): string {
  return draft;
}

export function setDraft(text: string): void {
  draft = text;
  schedulePersist();
}

export function schedulePersist(): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(persistNow, { timeout: 1_000 });
    else persistNow();
  }, DEBOUNCE_MS);
}

export function persistNow(): void {
  clearTimeout(timer);
  const conversationId = shownConversation();
  const h = header.value;
  const base: Saved = {
    v: 1,
    conversationId,
    header: h?.id === conversationId ? h : null,
    lastSeq: -1,
    firstSeq: 0,
    events: [],
    draft,
  };
  if (conversationId !== null && overBudgetFor !== conversationId) {
    const events = held.slice();
    // Measured once per save; a conversation found too large stops being cached (no repeated cost).
    if (JSON.stringify(events).length <= CACHE_BUDGET_CHARS) {
      saveState({ ...base, lastSeq: lastSeqHeld(), firstSeq: firstSeqHeld(), events });
      return;
    }
    overBudgetFor = conversationId;
  }
  saveState(base);
}
