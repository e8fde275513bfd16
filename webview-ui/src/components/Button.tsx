// A text button in VS Code's primary or secondary style, optionally with a leading codicon.
import type { ComponentChildren, Ref } from 'preact';
import { Icon } from './Icon';

interface Props {
  kind?: 'primary' | 'secondary';
  icon?: string;
  type?: 'button' | 'submit';
  onClick?: () => void;
  disabled?: boolean;
  label?: string;
  buttonRef?: Ref<HTMLButtonElement>;
  children: ComponentChildren;
}

export function Button({
  kind = 'primary',
  icon,
  type = 'button',
  onClick,
  disabled,
  label,
  buttonRef,
  children,
}: Props) {
  return (
    <button
      ref={buttonRef}
      type={type}
      class={`button ${kind}`}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
    >
      {icon && <Icon name={icon} />}
      <span>{children}</span>
    </button>
  );
}
