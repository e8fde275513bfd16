// A few words that name an event, for the timeline's position ("Event 12 of 40: agent, terminal").
import type { EventJson } from '../../../src/protocol/messages';
import { source, str } from './fields';

const KIND_WORDS: Record<string, string> = {
  SystemPromptEvent: 'system prompt',
  ConversationStateUpdateEvent: 'state change',
  AgentErrorEvent: 'agent error',
  UserRejectObservation: 'rejection',
  CondensationEvent: 'condensation',
  PauseEvent: 'pause',
  CorruptRecord: 'unreadable record',
};

export function eventLabel(e: EventJson): string {
  const tool = str(e.tool_name);
  if (e.kind === 'MessageEvent') return `${source(e) || 'user'} message`;
  if (e.kind === 'ActionEvent') return `${source(e) || 'agent'}, ${tool ?? 'action'}`;
  if (e.kind === 'ObservationEvent') return `${tool ?? 'tool'} result`;
  if (e.kind === 'ConversationStateUpdateEvent') {
    const key = str(e.key);
    return key ? `state change (${key.replace(/_/g, ' ')})` : 'state change';
  }
  return (
    KIND_WORDS[e.kind] ??
    e.kind
      .replace(/Event$/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
  );
}
