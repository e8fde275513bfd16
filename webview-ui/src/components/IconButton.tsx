// A toolbar-style button showing a codicon, and a short word beside it when `text` is given: the
// label is both its accessible name and tooltip.
import { Icon } from './Icon';

interface Props {
  icon: string;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  class?: string;
  /** A word shown beside the icon, for a button whose icon alone does not say what it does. */
  text?: string;
}

export function IconButton({ icon, label, onClick, disabled, pressed, class: cls, text }: Props) {
  return (
    <button
      type="button"
      class={`icon-button${text ? ' with-text' : ''}${cls ? ` ${cls}` : ''}`}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
    >
      <Icon name={icon} />
      {text && <span class="icon-button-text">{text}</span>}
    </button>
  );
}
