// Where an external ACP agent's turn stops for Logbook (a write, a read, a command, a permission
// request), and how each stop is answered from the result Logbook recorded: apart from the agent's
// connection (external-agent.ts), which only turns requests into stops and stops into replies.
import { readFileSync } from 'node:fs';
import { RequestError, type RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { ChatMessage } from '../../../core/events/to-messages';
import { type EndedTerminal, endedTerminal } from './client-terminal';

/** Where the agent's turn stops for Logbook. */
export type Stop =
  | { kind: 'write'; callId: string; path: string; content: string; answer: (err?: Error) => void }
  | {
      kind: 'permission';
      callId: string;
      request: RequestPermissionRequest;
      answer: (optionId?: string) => void;
    }
  | {
      kind: 'read';
      callId: string;
      path: string;
      line?: number;
      limit?: number;
      answer: (result: { content: string } | Error) => void;
    }
  | {
      kind: 'terminal';
      callId: string;
      command: string;
      outputByteLimit?: number | null;
      /** The shell started the command (when the session lets the agent follow it). */
      started?: () => void;
      answer: (result: EndedTerminal | Error) => void;
    }
  | { kind: 'end'; stopReason: string }
  | { kind: 'failed'; message: string };

/** The file tool's view header: the read was allowed and the file read. */
const VIEWED = 'Here is the result of running `cat -n` on ';

/** A view that ran answers with the file's text (the lines asked for); anything else is an error. */
export function answerRead(r: Extract<Stop, { kind: 'read' }>, result: string): void {
  if (!result.startsWith(VIEWED)) {
    r.answer(RequestError.internalError({ path: r.path }, `Logbook did not read the file: ${result}`));
    return;
  }
  try {
    const text = readFileSync(r.path, 'utf8');
    if (r.line == null && r.limit == null) return r.answer({ content: text });
    const lines = text.split('\n');
    const from = Math.max(1, r.line ?? 1) - 1;
    r.answer({ content: lines.slice(from, r.limit != null ? from + r.limit : undefined).join('\n') });
  } catch (err) {
    r.answer(
      RequestError.internalError({ path: r.path }, `Logbook could not read the file: ${messageOf(err)}`),
    );
  }
}

/** A command that ran answers terminal/create; anything else (refused, rejected) is an error. */
export function answerTerminal(t: Extract<Stop, { kind: 'terminal' }>, result: string): void {
  const ended = endedTerminal(result, t.outputByteLimit);
  t.answer(
    ended ?? RequestError.internalError({ command: t.command }, `Logbook did not run the command: ${result}`),
  );
}

/** What the gate rates of a permission request: its title, its kind, the command it names. */
export function permissionArgs(req: RequestPermissionRequest): Record<string, unknown> {
  const call = req.toolCall;
  const raw = call.rawInput as Record<string, unknown> | undefined;
  const command = Array.isArray(raw?.['command'])
    ? (raw['command'] as unknown[]).map(String).join(' ')
    : typeof raw?.['command'] === 'string'
      ? raw['command']
      : undefined;
  const title = call.title ?? call.toolCallId;
  return {
    title,
    ...(call.kind ? { kind: call.kind } : {}),
    // A title is no command line: only rawInput's command is rated as one.
    ...(command !== undefined ? { command } : {}),
    tool_call: call,
    summary: title,
  };
}

export function textOf(m: ChatMessage): string {
  if (typeof m.content === 'string') return m.content;
  if (!m.content) return '';
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

export function messageOf(err: unknown): string {
  return err instanceof Error
    ? err.message
    : typeof err === 'object' && err && 'message' in err
      ? String((err as { message: unknown }).message)
      : String(err);
}

/** Stops of a turn Logbook gave up (it timed out): each request refused, a permission cancelled. */
export function refuseStops(stops: readonly Stop[]): void {
  for (const s of stops) {
    if (s.kind === 'permission') s.answer();
    else if (s.kind !== 'end' && s.kind !== 'failed')
      s.answer(
        RequestError.internalError({}, 'Logbook gave up this turn: the agent said nothing for too long.'),
      );
  }
}
