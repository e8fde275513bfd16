// A delegated agent with several steps, for the tests of pausing a tree of agents: it thinks
// "one", "two" (slowly: a pause comes while the model is asked) and "three", then finishes.
import type { Reply, Turn } from '../llm-server/scenario';

export const COUNTING_TASK = 'count to three';
export const COUNTED = 'counted to three';

export const delegateReply = (id: string, task: string, type: string): Reply => ({
  toolCalls: [
    {
      id: `call-${id}`,
      name: 'delegate',
      arguments: { command: 'delegate', ids: [id], agent_types: [type], tasks: { [id]: task } },
    },
  ],
});

export const thinkReply = (thought: string, delayMs = 0): Reply => ({
  toolCalls: [{ id: `think-${thought}`, name: 'think', arguments: { thought } }],
  ...(delayMs ? { delayMs } : {}),
});

export const finishReply = (message: string): Reply => ({
  toolCalls: [{ id: `finish-${message.length}`, name: 'finish', arguments: { message } }],
});

/** The counting agent's turns; its second reply takes `slowMs`. */
export function countingChildTurns(slowMs: number): Turn[] {
  return [
    { match: { lastRole: 'user', lastContentIncludes: COUNTING_TASK }, reply: thinkReply('one') },
    { match: { lastRole: 'tool' }, reply: thinkReply('two', slowMs) },
    { match: { lastRole: 'tool' }, reply: thinkReply('three') },
    { match: { lastRole: 'tool' }, reply: finishReply(COUNTED) },
  ];
}

/** The thoughts an agent's log records, in order. */
export function thoughtsOf(
  events: readonly { kind?: unknown; tool_name?: unknown; action?: unknown }[],
): string[] {
  return events
    .filter((e) => e.kind === 'ActionEvent' && e.tool_name === 'think')
    .map((e) => String((e.action as { thought?: unknown }).thought));
}
