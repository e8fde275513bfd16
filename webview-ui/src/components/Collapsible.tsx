// A disclosure: a button with aria-expanded and a body rendered only while open. The open state is
// kept in the store (keyed per event and section) so it survives the row being virtualized away.
import type { ComponentChildren } from 'preact';
import { isOpen, type Row, toggleOpen } from '../state/store';
import { Icon } from './Icon';

interface Props {
  id: string;
  row?: Row;
  label: ComponentChildren;
  defaultOpen?: boolean;
  class?: string;
  children: () => ComponentChildren;
}

export function Collapsible({ id, row, label, defaultOpen = false, class: cls, children }: Props) {
  const open = isOpen(id, defaultOpen);
  return (
    <div class={`collapsible${cls ? ` ${cls}` : ''}`}>
      <button
        type="button"
        class="collapsible-toggle"
        aria-expanded={open}
        onClick={() => toggleOpen(id, row, defaultOpen)}
      >
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        <span class="collapsible-label">{label}</span>
      </button>
      {open && <div class="collapsible-body">{children()}</div>}
    </div>
  );
}
