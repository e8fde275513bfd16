// `run` at a terminal: when actions wait for the user, each is shown (a file edit as its diff, a
// command in full, with its risk and why) and asked about in place, and the answers go through the
// same approve/reject a later `logbook approve` or `reject` would record. Scripts (no terminal, or
// --no-input) get exit code 2 instead, as before.
import type { Conversation } from '../../../core/agent/conversation';
import type { ActionEvent } from '../../../core/events';
import { commandPrefix } from '../../../core/security/command-prefix';
import { printableLine } from '../../../core/text/printable';
import { actionWhat } from './event-line';
import type { CliIo } from './io';
import { pendingEditDiff } from './pending-diff';
import { addUserAllowRule } from './user-allow-rules';

/** Diff lines shown before "show more" shows them all. */
const SHORT_DIFF_LINES = 60;

const SGR = { added: '\x1b[32m', removed: '\x1b[31m', hunk: '\x1b[36m', bold: '\x1b[1m', reset: '\x1b[0m' };

export interface AskTarget {
  conversation: Pick<Conversation, 'awaitingConfirmation' | 'heldRisks' | 'approve' | 'reject'>;
  /** Holds a rule for the rest of this run (the config file holds it for later ones). */
  addAllowRule(rule: string): void;
  workspace: string;
  /** Who asks, when not the main agent: "the delegated agent main.lead.1". */
  who?: string;
}

/**
 * Asks about every action that waits, then records the answers. False when the user gave no
 * answer (stdin ended, or Ctrl+C): nothing is recorded then and the run stops as a script's would.
 */
export async function askInPlace(
  io: CliIo,
  target: AskTarget,
  /** Settles when the user interrupts: a question then stops waiting. */
  interrupted: Promise<void>,
): Promise<boolean> {
  const ask = io.ask;
  if (!ask) return false;
  // Ctrl+C while a question waits: the question stops reading stdin (which would keep the
  // process alive), and the run is interrupted as at any other time.
  const stop = new AbortController();
  void interrupted.then(() => stop.abort());
  const question = async (q: string): Promise<string | undefined> =>
    Promise.race([ask(q, stop.signal), interrupted.then(() => undefined)]);
  const held = target.conversation.awaitingConfirmation();
  const risks = new Map(target.conversation.heldRisks().map((d) => [d.actionId, d]));
  const approved: string[] = [];
  const rejected: { id: string; reason: string }[] = [];
  for (const [i, action] of held.entries()) {
    const d = risks.get(action.id);
    const reasons = [...(d?.riskReasons ?? []), ...(d?.notUndoable ? [d.notUndoable] : [])];
    io.out('');
    io.out(
      `${held.length > 1 ? `[${i + 1}/${held.length}] ` : ''}${target.who ?? 'The agent'} wants to: ` +
        `${action.summary ?? actionWhat(action)}`,
    );
    io.out(`  risk ${d?.risk ?? 'UNKNOWN'}${reasons.length ? `: ${reasons.join('; ')}` : ''}`);
    showAction(io, action, target.workspace, false);
    const answer = await decideOne(io, question, action, target);
    if (answer === undefined) return false;
    if (answer.kind === 'yes') approved.push(action.id);
    else rejected.push({ id: action.id, reason: answer.reason });
  }
  if (approved.length) await target.conversation.approve(approved);
  for (const r of rejected) await target.conversation.reject(r.reason, [r.id]);
  return true;
}

type Answer = { kind: 'yes' } | { kind: 'no'; reason: string };

async function decideOne(
  io: CliIo,
  question: (q: string) => Promise<string | undefined>,
  action: ActionEvent,
  target: AskTarget,
): Promise<Answer | undefined> {
  const command = terminalCommand(action);
  const choices = `[y]es / [n]o${command ? ' / [a]lways allow' : ''} / [s]how more: `;
  for (;;) {
    const raw = await question(choices);
    if (raw === undefined) return undefined;
    const a = raw.trim().toLowerCase();
    if (a === 'y' || a === 'yes') return { kind: 'yes' };
    if (a === 'n' || a === 'no') {
      const reason = await question('Why not? (the agent reads this; Enter to just say no): ');
      if (reason === undefined) return undefined;
      return { kind: 'no', reason: reason.trim() || 'The user said no.' };
    }
    if ((a === 'a' || a === 'always') && command) {
      const suggested = commandPrefix(command);
      const typed = await question(
        `Always allow commands starting with "${printableLine(suggested)}"? Enter to accept, or type the start to allow: `,
      );
      if (typed === undefined) return undefined;
      const rule = typed.trim() || suggested;
      if (!rule || !command.trim().startsWith(rule)) {
        io.err(`"${rule}" is not how this command starts; nothing was added.`);
        continue;
      }
      const added = addUserAllowRule(io.env, rule);
      target.addAllowRule(rule);
      io.out(
        added.added
          ? `Added the allow rule "${rule}" to ${added.path}.`
          : `${added.path} already allows "${rule}".`,
      );
      return { kind: 'yes' };
    }
    if (a === 's' || a === 'show' || a === 'show more') {
      showAction(io, action, target.workspace, true);
      continue;
    }
    io.err(`Answer y, n${command ? ', a' : ''} or s.`);
  }
}

/** What the action would do: a file edit's diff, a command in full, else its arguments. */
function showAction(io: CliIo, action: ActionEvent, workspace: string, more: boolean): void {
  const diff = pendingEditDiff(action, workspace);
  const command = terminalCommand(action);
  if (diff !== null) {
    const lines = diff.split('\n');
    const shown = more ? lines : lines.slice(0, SHORT_DIFF_LINES);
    for (const line of shown) diffLine(io, line);
    if (shown.length < lines.length)
      io.out(`  ... ${lines.length - shown.length} more line(s): answer s to see them all`);
  } else if (command !== undefined) {
    for (const line of command.split('\n')) io.out(`  $ ${line}`);
  } else {
    if (isEdit(action))
      io.out('  (this edit does not apply to the file as it is now: the tool will say why)');
    io.out(`  ${action.tool_name} ${argumentsText(action)}`);
  }
  if (more) {
    const thought = action.thought.map((t) => t.text).join('');
    if (thought.trim()) io.out(`  the agent's reason: ${thought.trim()}`);
    if (diff !== null || command !== undefined) io.out(`  arguments: ${argumentsText(action)}`);
  }
}

function isEdit(action: ActionEvent): boolean {
  const c = (action.action as { command?: unknown } | null)?.command;
  return action.tool_name === 'file_editor' && (c === 'create' || c === 'str_replace' || c === 'insert');
}

/** The action's arguments as JSON, without the empty ones and the payload's own bookkeeping. */
function argumentsText(action: ActionEvent): string {
  const args = Object.entries((action.action ?? {}) as Record<string, unknown>).filter(
    ([k, v]) => v !== null && v !== undefined && k !== 'kind' && k !== 'real_path',
  );
  return JSON.stringify(Object.fromEntries(args));
}

function diffLine(io: CliIo, line: string): void {
  const style =
    line.startsWith('+++') || line.startsWith('---')
      ? SGR.bold
      : line.startsWith('+')
        ? SGR.added
        : line.startsWith('-')
          ? SGR.removed
          : line.startsWith('@@')
            ? SGR.hunk
            : '';
  if (style && io.colour && io.outRaw) io.outRaw(`${style}  ${printableLine(line)}${SGR.reset}\n`);
  else io.out(`  ${line}`);
}

function terminalCommand(action: ActionEvent): string | undefined {
  if (action.tool_name !== 'terminal') return undefined;
  const command = (action.action as { command?: unknown } | null)?.command;
  return typeof command === 'string' && command.trim() !== '' ? command : undefined;
}

/** `--no-input`: never ask, even at a terminal (exit 2 when actions wait, as for a script). */
export const NO_INPUT_OPTION = { 'no-input': { type: 'boolean' } } as const;

/** Where to ask in place: a person at a terminal, not --no-input, not --json (a program reads that). */
export function inPlaceAt(
  io: CliIo,
  values: { 'no-input'?: boolean; json?: boolean },
  workspace: string,
): { workspace: string } | undefined {
  return io.interactive && io.ask && values['no-input'] !== true && values.json !== true
    ? { workspace }
    : undefined;
}
