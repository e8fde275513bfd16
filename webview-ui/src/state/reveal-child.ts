// A delegated agent the host asked to show (a click on it in the Conversations view): the chain of
// agents from the shown conversation's own delegation down to it. The feed scrolls to that
// delegation, opens each card of the chain and focuses the deepest one it can show.
import { signal } from '@preact/signals';
import type { ChildAgent } from '../../../src/protocol/messages';
import { childOpenKey, waitsBelow } from './children';
import { header, isOpen, shownConversation, toggleOpen } from './store';

export interface ChildReveal {
  conversationId: string;
  /** Top-level child first, the agent to show last. */
  childIds: string[];
}

export const childReveal = signal<ChildReveal | null>(null);

export function requestChildReveal(reveal: ChildReveal): void {
  childReveal.value = { conversationId: reveal.conversationId, childIds: [...reveal.childIds] };
}

/** The agents of the chain the header lists, top first; none when its top is not listed (yet). */
export function listedChain(reveal: ChildReveal): ChildAgent[] {
  const all = header.value?.children ?? [];
  const chain: ChildAgent[] = [];
  let parent = reveal.conversationId;
  for (const id of reveal.childIds) {
    const c = all.find((x) => x.conversationId === id);
    // A parent the header names must match; older hosts name none.
    if (!c || (c.parentConversationId !== undefined && c.parentConversationId !== parent)) break;
    chain.push(c);
    parent = id;
  }
  return chain;
}

/** Opens each card of the chain (a card already open stays open). */
export function openChain(chain: readonly ChildAgent[]): void {
  const all = header.value?.children ?? [];
  for (const c of chain) {
    const key = childOpenKey(c.conversationId);
    const asks = waitsBelow(c.conversationId, all);
    if (!isOpen(key, asks)) toggleOpen(key, undefined, asks);
  }
}

/** The reveal is for a conversation no longer shown: it is dropped. */
export function revealIsStale(reveal: ChildReveal): boolean {
  return reveal.conversationId !== shownConversation();
}
