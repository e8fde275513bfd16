// What the demo model reads from a chat request: the user's latest task and the tool calls made
// since, each with its result, so every reply follows what actually happened.
import { PLAN_APPROVAL_LEAD, PLAN_MODE_PROMPT } from '../../../core/agent/plan-mode';
import { type DemoMessage, type DemoRequest, messageText } from './demo-wire';

export interface CallOutcome {
  name: string;
  id: string;
  /** The tool message that answered the call; undefined while unanswered. */
  result: string | undefined;
}

export interface DemoReading {
  /** The user's latest words: its first paragraph, before any attachment. */
  task: string;
  /** How many user messages came before the latest one (0 for the first task). */
  earlierTasks: number;
  /** Tool calls since the latest user message, oldest first. */
  calls: CallOutcome[];
  /** The request carries the plan-mode instructions: the agent may only read. */
  planMode: boolean;
  /** The latest user message is the go-ahead for a plan (Approve plan). */
  approvedPlan: boolean;
}

/** The line plan mode adds to the system prompt, which the demo looks for. */
const PLAN_MODE_MARK = PLAN_MODE_PROMPT.split('\n')[0]!;

export function readConversation(request: DemoRequest): DemoReading {
  const { messages } = request;
  const userIndexes = messages.flatMap((m, i) => (m.role === 'user' && !isNudge(m) ? [i] : []));
  const last = userIndexes.at(-1) ?? -1;
  const task = last >= 0 ? firstParagraph(messageText(messages[last]?.content)) : '';
  const calls: CallOutcome[] = [];
  for (const m of messages.slice(last + 1)) {
    if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) calls.push({ name: c.function.name, id: c.id, result: undefined });
    } else if (m.role === 'tool') {
      const call = calls.find((c) => c.id === m.tool_call_id);
      if (call) call.result = messageText(m.content);
    }
  }
  const planMode = messages.some(
    (m) => m.role === 'system' && messageText(m.content).includes(PLAN_MODE_MARK),
  );
  return {
    task,
    earlierTasks: Math.max(0, userIndexes.length - 1),
    calls,
    planMode,
    approvedPlan: task.startsWith(PLAN_APPROVAL_LEAD),
  };
}

/** "The user rejected this action: REASON" as the agent words a rejection for the model. */
export function rejectionOf(result: string | undefined): { reason: string } | undefined {
  const m = /^(?:The user|A hook) rejected this action(?:: ([\s\S]*))?\.?$/.exec(result?.trim() ?? '');
  return m ? { reason: (m[1] ?? '').trim() } : undefined;
}

/** Where an attachment starts in a message's text (the wire may join its parts into one string). */
const ATTACHED = /\n--- Attached .+? ---(?:\n|$)/;

function firstParagraph(text: string): string {
  return (text.split(ATTACHED)[0]!.split(/\n\s*\n/)[0] ?? '').trim();
}

function isNudge(m: DemoMessage): boolean {
  return messageText(m.content).startsWith('[logbook:');
}
