// The attachments of the message being written, as removable chips (each remove button is a
// keyboard stop with its own name). Names come from files and pastes: rendered as text only.
import type { Chip } from '../lib/attachments';
import { Icon } from './Icon';
import { t } from '../lib/text';

export function AttachmentChips({ chips, onRemove }: { chips: Chip[]; onRemove: (key: string) => void }) {
  if (chips.length === 0) return null;
  return (
    <ul class="attachment-chips" aria-label={t('attachments')}>
      {chips.map((c) => (
        <li key={c.key} class="attachment-chip" title={c.label}>
          {c.thumb ? <img class="chip-thumb" src={c.thumb} alt="" /> : <Icon name={c.icon} />}
          <span class="chip-label">{c.label}</span>
          <button
            type="button"
            class="chip-remove"
            aria-label={t('removeAttachment', c.label)}
            title={t('remove')}
            onClick={() => onRemove(c.key)}
          >
            <Icon name="close" />
          </button>
        </li>
      ))}
    </ul>
  );
}
