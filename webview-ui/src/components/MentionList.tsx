// The completion list under a mention being typed: a listbox the message box drives by keyboard
// (aria-activedescendant), or picked with the mouse without taking focus from the box.
import type { MentionItem } from '../../../src/protocol/messages';
import { mentionIcon } from '../lib/attachments';
import { Icon } from './Icon';
import { t } from '../lib/text';

export const MENTION_LIST_ID = 'mention-list';
export const optionId = (i: number) => `mention-option-${i}`;

interface Props {
  items: MentionItem[];
  active: number;
  onPick: (item: MentionItem) => void;
  onHover: (index: number) => void;
}

export function MentionList({ items, active, onPick, onHover }: Props) {
  return (
    <ul
      class="mention-list"
      id={MENTION_LIST_ID}
      role="listbox"
      aria-label={t('mentionListLabel')}
      // Scrolling the list with the mouse must not take focus from the message box (that closes it).
      onMouseDown={(e) => e.preventDefault()}
    >
      {items.length === 0 && (
        <li class="mention-empty" role="presentation">
          {t('nothingMatches')}
        </li>
      )}
      {items.map((item, i) => (
        <li
          key={`${item.kind}:${item.label}`}
          id={optionId(i)}
          role="option"
          aria-selected={i === active}
          class={`mention-option${i === active ? ' active' : ''}`}
          title={item.detail ? `${item.label} — ${item.detail}` : item.label}
          onMouseDown={(e) => e.preventDefault()}
          onMouseMove={() => i !== active && onHover(i)}
          onClick={() => onPick(item)}
        >
          <Icon name={mentionIcon(item.kind)} />
          <span class="mention-label">{item.label}</span>
          {item.detail && <span class="mention-detail">{item.detail}</span>}
        </li>
      ))}
    </ul>
  );
}
