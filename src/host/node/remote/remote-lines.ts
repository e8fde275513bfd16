// One line per event of an agent-server conversation, for the terminal: what the agent said, did
// and saw. State updates and the system prompt are not shown (the log keeps them).
import { printableLine } from '../../../core/text/printable';

const MAX = 200;

function short(text: string): string {
  const line = printableLine(text.replace(/\s+/g, ' ').trim());
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((c) =>
      c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string'
        ? (c as { text: string }).text
        : '',
    )
    .join(' ');
}

export function describeRemoteEvent(e: Record<string, unknown>): string | undefined {
  switch (e.kind) {
    case 'MessageEvent': {
      const m = e.llm_message as { role?: unknown; content?: unknown } | undefined;
      const who = e.source === 'user' ? 'user' : 'agent';
      return `${who}: ${short(textOf(m?.content))}`;
    }
    case 'ActionEvent': {
      const action = (e.action ?? {}) as Record<string, unknown>;
      const what =
        typeof action.command === 'string' && e.tool_name === 'terminal'
          ? `$ ${action.command}`
          : typeof e.summary === 'string'
            ? e.summary
            : String(e.tool_name ?? 'action');
      return `action ${String(e.tool_name ?? '')}: ${short(what)}`;
    }
    case 'ObservationEvent': {
      const o = (e.observation ?? {}) as { content?: unknown };
      return `result ${String(e.tool_name ?? '')}: ${short(textOf(o.content))}`;
    }
    case 'UserRejectObservation':
      return `rejected: ${short(String(e.rejection_reason ?? ''))}`;
    case 'AgentErrorEvent':
      return `error: ${short(String(e.error ?? ''))}`;
    case 'ConversationErrorEvent':
      return `conversation error: ${short(`${String(e.code ?? '')} ${String(e.detail ?? '')}`)}`;
    default:
      return undefined;
  }
}
