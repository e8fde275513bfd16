// A chat message: the user's (a bubble) or the agent's (markdown with its thinking collapsed). Stuck
// nudges (messages the stuck detector sends the agent) are shown as a warning line instead.
import { contentText, imageCount, obj, arr, str } from '../lib/fields';
import type { Row } from '../state/store';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { Markdown } from './Markdown';
import { MessageAttachments } from './MessageAttachments';
import { attachmentPart, attachmentParts } from '../lib/attachment-parts';
import { t, tn } from '../lib/text';

const STUCK_NUDGE = '[logbook:stuck-nudge]';
const MAX_TEXT = 200_000;

export function MessageView({ row }: { row: Row }) {
  const e = row.event;
  const message = obj(e.llm_message) ?? {};
  // A user message's attachments are shown under it (collapsed), not as part of its text.
  const attached = str(e.source) === 'user' ? attachmentParts(message.content).length : 0;
  const text = attached
    ? contentText(
        arr(message.content).filter((c, i) => i === 0 || !attachmentPart(c)),
        '\n\n',
      )
    : contentText(message.content, '\n\n');
  const images = str(e.source) === 'user' ? 0 : imageCount(message.content);
  const from = str(e.source) ?? '';
  if (text.startsWith(STUCK_NUDGE))
    return (
      <div class="notice tone-warn">
        <Icon name="warning" />
        <span>{t('stuckCheck', text.slice(STUCK_NUDGE.length).trim().slice(0, 2_000))}</span>
      </div>
    );
  const user = from === 'user';
  const who = user ? t('you') : from === 'agent' ? (str(e.sender) ?? t('agent')) : from || t('message');
  const reasoning = str(message.reasoning_content)?.trim();
  const skills = arr(e.activated_skills).filter((s): s is string => typeof s === 'string');
  return (
    <div class={`event message ${user ? 'user' : from === 'agent' ? 'agent' : 'other'}`}>
      <div class="who">
        <Icon name={user ? 'account' : from === 'agent' ? 'sparkle' : 'info'} />
        <span>{who}</span>
      </div>
      {reasoning && (
        <Collapsible id={`${e.id}:reasoning`} row={row} label={t('thinking')} class="reasoning">
          {() => <Markdown class="muted" text={reasoning.slice(0, MAX_TEXT)} />}
        </Collapsible>
      )}
      <Markdown class="body" text={text.slice(0, MAX_TEXT)} />
      {user && <MessageAttachments row={row} content={message.content} />}
      {(images > 0 || skills.length > 0) && (
        <div class="note">
          {images > 0 && `${tn(images, 'imageAttachedOne', 'imageAttachedMany')} `}
          {skills.length > 0 && t('skills', skills.join(', ').slice(0, 300))}
        </div>
      )}
    </div>
  );
}
