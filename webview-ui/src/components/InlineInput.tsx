// A one-line question inside the panel (a reject reason, an allow rule): focused when it appears,
// Enter submits, Escape cancels.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Button } from './Button';
import { t } from '../lib/text';

interface Props {
  label: string;
  initial?: string;
  placeholder?: string;
  submitLabel: string;
  submitIcon?: string;
  required?: boolean;
  maxLength: number;
  onSubmit: (value: string) => void;
  onCancel: () => void;
}

export function InlineInput(p: Props) {
  const [value, setValue] = useState(p.initial ?? '');
  const input = useRef<HTMLInputElement>(null);
  // Layout effect: focus before the next keystroke is handled, so nothing typed right away is lost.
  useLayoutEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const blocked = p.required === true && value.trim() === '';
  return (
    <form
      class="inline-input"
      onSubmit={(e) => {
        e.preventDefault();
        if (!blocked) p.onSubmit(value);
      }}
    >
      <label class="inline-label">
        <span>{p.label}</span>
        <input
          ref={input}
          class="text-input"
          value={value}
          placeholder={p.placeholder}
          maxLength={p.maxLength}
          onInput={(e) => setValue(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              p.onCancel();
            }
          }}
        />
      </label>
      <div class="inline-actions">
        <Button type="submit" icon={p.submitIcon} disabled={blocked}>
          {p.submitLabel}
        </Button>
        <Button kind="secondary" onClick={p.onCancel}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  );
}
