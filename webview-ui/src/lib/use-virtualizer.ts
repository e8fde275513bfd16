// @tanstack/virtual-core bound to a Preact component (the React adapter's pattern): one Virtualizer
// per component, options refreshed on every render, a re-render whenever it reports a change.
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useRef } from 'preact/hooks';

type Options = Omit<
  VirtualizerOptions<HTMLElement, HTMLElement>,
  'observeElementRect' | 'observeElementOffset' | 'scrollToFn' | 'onChange'
>;

export function useVirtualizer(options: Options): Virtualizer<HTMLElement, HTMLElement> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const full: VirtualizerOptions<HTMLElement, HTMLElement> = {
    ...options,
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    onChange: () => rerender(0),
  };
  const ref = useRef<Virtualizer<HTMLElement, HTMLElement> | null>(null);
  ref.current ??= new Virtualizer(full);
  ref.current.setOptions(full);
  const v = ref.current;
  useLayoutEffect(() => v._didMount(), [v]);
  useLayoutEffect(() => v._willUpdate());
  return v;
}
