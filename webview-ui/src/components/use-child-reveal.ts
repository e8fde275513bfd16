// Brings a delegated agent's card into view when the host asks (see state/reveal-child.ts): the row
// of the delegation that started its chain is scrolled to (earlier events are asked for until it is
// held), the chain's cards open, and once rendered the deepest card's head is scrolled to and
// focused. Tried again as rows, the header and the children's steps arrive.
import { type MutableRef, useLayoutEffect, useRef } from 'preact/hooks';
import { childVersion } from '../state/children';
import { childReveal, listedChain, openChain, revealIsStale } from '../state/reveal-child';
import { firstSeqHeld, header, rowOfEvent, shownConversation, version } from '../state/store';
import { send } from '../vscode-api';

interface Scroller {
  scrollToIndex(index: number, opts: { align: 'start' | 'center' | 'end' }): void;
}

export function useChildReveal(v: Scroller, lead: number, following: MutableRef<boolean>): void {
  const target = childReveal.value;
  const held = version.value;
  const steps = childVersion.value;
  const shownHeader = header.value;
  const askedBefore = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (!target) return;
    if (revealIsStale(target)) {
      childReveal.value = null;
      return;
    }
    const chain = listedChain(target);
    const top = chain[0];
    if (!top?.parentEventId) return;
    const index = rowOfEvent(top.parentEventId);
    if (index < 0) {
      const first = firstSeqHeld();
      const id = shownConversation();
      if (first > 0 && id !== null && askedBefore.current !== first) {
        askedBefore.current = first;
        send({ type: 'loadEarlier', conversationId: id, beforeSeq: first });
      }
      return;
    }
    openChain(chain);
    following.current = false;
    v.scrollToIndex(lead + index, { align: 'start' });
    // The cards render after this pass: the deepest one shown gets the focus.
    let frames = 0;
    let handle = requestAnimationFrame(function focusDeepest() {
      for (let i = chain.length - 1; i >= 0; i--) {
        const head = document.querySelector<HTMLElement>(
          `li.delegated-agent[data-child="${CSS.escape(chain[i]!.conversationId)}"] > .delegated-head`,
        );
        if (!head) continue;
        head.scrollIntoView({ block: 'center' });
        head.focus();
        // The deepest card the header lists is shown: done. A card listed but not drawn yet (its
        // parent's steps still on their way) is tried again as they arrive.
        if (i === chain.length - 1 && childReveal.value === target) childReveal.value = null;
        return;
      }
      if (++frames < 10) handle = requestAnimationFrame(focusDeepest);
    });
    return () => cancelAnimationFrame(handle);
  }, [target, held, steps, shownHeader, lead, v]);
}
