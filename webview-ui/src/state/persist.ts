// What survives the webview being hidden or reloaded (VS Code destroys a hidden webview's document;
// we do not ask it to retain it): the conversation id and header, the last seq held, the events
// themselves while they fit a budget, and the composer draft: its text, its attachment chips and
// toggles, pasted images while they fit a smaller budget (the names of those left out are kept, so the
// composer can ask for them again). On load the view asks the host only for events after that seq.
// Over the budget, only the id is kept and lastSeq is -1: the host resends (chunked).
import * as z from 'zod/mini';
import { Attachment, ConversationHeader, LIMITS, ViewEvent } from '../../../src/protocol/messages';
import { type Chip, restoredChip, thumbType } from '../lib/attachments';
import { loadState, saveState } from '../vscode-api';
import { firstSeqHeld, header, held, lastSeqHeld, shownConversation } from './store';

const CACHE_BUDGET_CHARS = 4_000_000;
/** Base64 of pasted images kept across a reload: every save writes them again, so keep it small. */
export const IMAGE_BUDGET_CHARS = 2_000_000;
const DEBOUNCE_MS = 400;
/**
 * Typing is saved within this long (not debounced: VS Code may tear the view down right after a
 * keystroke, e.g. on a click in the activity bar, which takes no focus from the view).
 */
const DRAFT_DELAY_MS = 100;

const SavedChip = z.object({
  attachment: Attachment,
  label: z.string().check(z.minLength(1), z.maxLength(LIMITS.path)),
  /** An image's type, for its preview. */
  type: z.optional(z.string().check(z.maxLength(40))),
});
const Composer = z.object({
  chips: z.array(SavedChip).check(z.maxLength(LIMITS.attachments)),
  file: z.boolean(),
  selection: z.boolean(),
  /** Names of pasted images over the budget: not saved, to be pasted again. */
  unsaved: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(LIMITS.attachments)),
});
type Composer = z.infer<typeof Composer>;
const NO_COMPOSER: Composer = { chips: [], file: false, selection: false, unsaved: [] };

const SavedJson = z.object({
  v: z.literal(1),
  conversationId: z.nullable(z.string()),
  header: z.nullable(ConversationHeader),
  lastSeq: z.int().check(z.minimum(-1)),
  /** seq of the first saved event (a long conversation is held from its newest events on) */
  firstSeq: z.optional(z.int().check(z.minimum(0))),
  events: z.array(ViewEvent),
  draft: z.string().check(z.maxLength(100_000)),
  /** A saved composer that does not parse is dropped alone; the rest of the state still counts. */
  composer: z.optional(z.unknown()),
});
// (Defaults and the composer's fallback are applied in code: zod/mini's default and catch would
// bring all of zod's utilities into the bundle.)
type Saved = Omit<z.infer<typeof SavedJson>, 'firstSeq' | 'composer'> & {
  firstSeq: number;
  composer: Composer;
};

const EMPTY: Saved = {
  v: 1,
  conversationId: null,
  header: null,
  lastSeq: -1,
  firstSeq: 0,
  events: [],
  draft: '',
  composer: NO_COMPOSER,
};

let draft = '';
let composer: Composer = NO_COMPOSER;
let overBudgetFor: string | null | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let draftTimer: ReturnType<typeof setTimeout> | undefined;
/** The events held when last measured within the budget: measured again only once they change. */
let fitting: { conversationId: string; firstSeq: number; lastSeq: number; events: ViewEvent[] } | undefined;

export function restoreState(): Saved {
  const r = SavedJson.safeParse(loadState());
  if (!r.success) return EMPTY;
  const c = r.data.composer === undefined ? undefined : Composer.safeParse(r.data.composer);
  const saved: Saved = {
    ...r.data,
    firstSeq: r.data.firstSeq ?? 0,
    composer: c?.success ? c.data : NO_COMPOSER,
  };
  draft = saved.draft;
  composer = saved.composer;
  // Events must run without a gap from firstSeq to lastSeq to be trusted; otherwise start over.
  const { events, firstSeq, lastSeq } = saved;
  const whole =
    events.length > 0 && events.every((e, i) => e.seq === firstSeq + i) && events.at(-1)!.seq === lastSeq;
  return whole ? saved : { ...saved, lastSeq: -1, firstSeq: 0, events: [] };
}

export function savedDraft(): string {
  return draft;
}

export function setDraft(text: string): void {
  draft = text;
  unsaved = true;
  draftTimer ??= setTimeout(persistNow, DRAFT_DELAY_MS);
}

export interface ComposerDraft {
  chips: Chip[];
  file: boolean;
  selection: boolean;
  /** Pasted images that were not kept over a reload (too large to save), by name. */
  unsaved: string[];
}

/** The composer's attachments as saved before the reload, as chips again. */
export function savedComposer(): ComposerDraft {
  return {
    chips: composer.chips.map((c) => restoredChip(c.attachment, c.label, c.type)),
    file: composer.file,
    selection: composer.selection,
    unsaved: composer.unsaved,
  };
}

/**
 * Saves the composer's attachments at once (not debounced: a chip picked just before the panel is
 * hidden must survive). Images are kept in the order pasted while their base64 fits the budget.
 */
export function setComposer(next: Omit<ComposerDraft, 'unsaved'>): void {
  let room = IMAGE_BUDGET_CHARS;
  const chips: Composer['chips'] = [];
  const unsaved: string[] = [];
  for (const c of next.chips) {
    const a = c.attachment;
    if (a.kind === 'image') {
      if (a.data.length > room) {
        unsaved.push(c.label.slice(0, 300));
        continue;
      }
      room -= a.data.length;
    }
    const type = thumbType(c);
    chips.push({ attachment: a, label: c.label.slice(0, LIMITS.path), ...(type ? { type } : {}) });
  }
  composer = { chips, file: next.file, selection: next.selection, unsaved };
  persistNow();
}

/** Whether a change waits for the debounced save. */
let unsaved = false;

export function schedulePersist(): void {
  unsaved = true;
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(persistNow, { timeout: 1_000 });
    else persistNow();
  }, DEBOUNCE_MS);
}

/**
 * Saves at once what waits for the debounce: called when focus leaves the composer or the page is
 * hidden, the moments before VS Code may tear the view down (the last keystrokes must not be lost).
 */
export function flushPersist(): void {
  if (unsaved) persistNow();
}

export function persistNow(): void {
  unsaved = false;
  clearTimeout(timer);
  clearTimeout(draftTimer);
  draftTimer = undefined;
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
    composer,
  };
  if (conversationId !== null && overBudgetFor !== conversationId) {
    const firstSeq = firstSeqHeld();
    const lastSeq = lastSeqHeld();
    const same =
      fitting?.conversationId === conversationId &&
      fitting.firstSeq === firstSeq &&
      fitting.lastSeq === lastSeq;
    if (!same) {
      // Measured once per change of the events held (a draft's keystrokes do not re-measure); a
      // conversation found too large stops being cached (no repeated cost).
      const events = held.slice();
      fitting =
        JSON.stringify(events).length <= CACHE_BUDGET_CHARS
          ? { conversationId, firstSeq, lastSeq, events }
          : undefined;
      if (!fitting) overBudgetFor = conversationId;
    }
    if (fitting) {
      saveState({ ...base, lastSeq, firstSeq, events: fitting.events });
      return;
    }
  }
  saveState(base);
}
