// A toolbar-style button showing only a codicon: the label is both its accessible name and tooltip.
import { Icon } from './Icon';

interface Props {
  icon: string;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  class?: string;
}

export function IconButton({ icon, label, onClick, disabled, pressed, class: cls }: Props) {
  return (
    <button
      type="button"
      class={`icon-button${cls ? ` ${cls}` : ''}`}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
    >
      <Icon name={icon} />
    </button>
  );
}
