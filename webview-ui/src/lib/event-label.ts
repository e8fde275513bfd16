// A few words that name an event, for the timeline's position ("event 12 of 40: before: npm test"):
// what happened in the user's words where the log has them, the event's kind otherwise.
import type { EventJson } from '../../../src/protocol/messages';
import { actionIdOf, obj, source, str } from './fields';
import { statusLook } from './format';
import { pointWords } from './point-words';
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

/**
 * What happened at `e`, said as the user would: "you: Add subtract()", "terminal: npm test",
 * "before: npm test", "status: Finished". `wordsOf` names another event by id (the action a
 * result or checkpoint belongs to); the event's kind when nothing better is known.
 */
export function pointLabel(e: EventJson, wordsOf: (id: string) => string | undefined): string {
  const own = pointWords(e);
  if (e.kind === 'MessageEvent' && own)
    return source(e) === 'user' ? t('pointYou', own) : t('pointSaid', source(e), own);
  if (e.kind === 'ActionEvent' && own) return t('pointTool', str(e.tool_name) ?? source(e), own);
  const actionId = actionIdOf(e) ?? str(obj(e.value)?.['action_id']);
  const ofAction = actionId === undefined ? undefined : wordsOf(actionId);
  if ((e.kind === 'ObservationEvent' || e.kind === 'UserRejectObservation') && ofAction)
    return e.kind === 'UserRejectObservation' ? t('pointRejected', ofAction) : t('pointResult', ofAction);
  if (e.kind === 'ConversationStateUpdateEvent') {
    const key = str(e.key);
    const value = obj(e.value);
    if (key === 'execution_status') return t('pointStatus', statusLook(str(e.value) ?? '').label);
    if (key === 'checkpoint' && value?.['reason'] === 'restore') return t('pointRestore');
    if ((key === 'checkpoint' || key === 'action_started') && ofAction) return t('pointBefore', ofAction);
    if (key === 'checkpoint_after' && ofAction) return t('pointAfter', ofAction);
  }
  return eventLabel(e);
}
