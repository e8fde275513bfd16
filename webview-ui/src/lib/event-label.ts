// A few words that name an event, for the timeline's position ("Event 12 of 40: agent, terminal").
import type { EventJson } from '../../../src/protocol/messages';
import { source, str } from './fields';
import { t } from './text';
import type { WebviewTextKey } from '../../../src/protocol/webview-text';

const KIND_WORDS: Record<string, WebviewTextKey> = {
  SystemPromptEvent: 'kindSystemPrompt',
  ConversationStateUpdateEvent: 'kindStateChange',
  AgentErrorEvent: 'kindAgentError',
  UserRejectObservation: 'kindRejection',
  CondensationEvent: 'kindCondensation',
  PauseEvent: 'kindPause',
  CorruptRecord: 'kindUnreadable',
};

export function eventLabel(e: EventJson): string {
  const tool = str(e.tool_name);
  // A source or tool is the log's own name (agent, terminal): shown as it is.
  if (e.kind === 'MessageEvent') return source(e) ? t('kindMessage', source(e)) : t('kindUserMessage');
  if (e.kind === 'ActionEvent')
    return source(e)
      ? t('kindAction', source(e), tool ?? t('kindActionFallback'))
      : t('kindAgentAction', tool ?? t('kindActionFallback'));
  if (e.kind === 'ObservationEvent') return tool ? t('kindResult', tool) : t('kindToolResult');
  if (e.kind === 'ConversationStateUpdateEvent') {
    const key = str(e.key);
    return key ? t('kindStateChangeOf', key.replace(/_/g, ' ')) : t('kindStateChange');
  }
  const word = KIND_WORDS[e.kind];
  return (
    (word && t(word)) ??
    e.kind
      .replace(/Event$/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
  );
}
