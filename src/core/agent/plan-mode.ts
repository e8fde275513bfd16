// Plan mode: the agent may only read, and answers with a plan (a task_tracker list) the user
// approves before anything changes. The mode is an `agent_mode` update in the log (state.mode), so
// replay, resume and fork keep it; this module decides which calls plan mode lets through and what
// the model is told.
import type { ChatMessage } from '../events/to-messages';
import { commandReadOnly, gitConfigRunsPrograms } from '../security';
import type { AgentMode, Task } from '../state';
import type { ToolSpec } from '../tools';

export type { AgentMode };
export const AGENT_MODES: readonly AgentMode[] = ['plan', 'act'];

export function isAgentMode(value: unknown): value is AgentMode {
  return value === 'plan' || value === 'act';
}

/** Told to the model (after the system prompt) while the conversation is in plan mode. */
export const PLAN_MODE_PROMPT = [
  'PLAN MODE is on: the user wants a plan before anything changes.',
  'You may only read: file_editor view, glob, grep, think, task_tracker, and terminal commands that only read (ls, cat, git log, grep...). Anything that writes a file, changes the repository, installs or runs project code is refused.',
  'Investigate what you need, then answer with your plan: call task_tracker with command "plan" and the complete list of steps (status todo), each with notes on what you will change and how you will check it. Then end your turn with a short summary and wait: the user edits or approves the plan, and only then switches you to act mode to carry it out.',
].join('\n');

/**
 * Why plan mode refuses this validated call, or null when it only reads: a tool whose spec is
 * read-only, a file_editor view, or a terminal command the rule analyzer judges read-only.
 */
export function planModeRefusal(
  spec: ToolSpec,
  args: Readonly<Record<string, unknown>>,
  roots: readonly string[],
  /** Where the agent's shell is now: a command's relative paths lead from there. */
  shellCwd?: string,
): string | null {
  const why = writeReason(spec, args, roots, shellCwd);
  if (why === null) return null;
  return (
    `Refused: the conversation is in plan mode, where you may only read. This ${spec.name} call was not run: ${why}. ` +
    'Keep investigating with read-only tools, then give your plan with task_tracker (command "plan") and wait for the user to approve it.'
  );
}

/**
 * Why this call would write or run something, or null when it only reads. Also judges the actions
 * an agent-server holds (remote plan mode), whose repository settings are not on this machine:
 * `gitConfig` then says what a git command's configuration is not known to do.
 */
export function writeReason(
  spec: Pick<ToolSpec, 'name' | 'readOnly'>,
  args: Readonly<Record<string, unknown>>,
  roots: readonly string[],
  shellCwd: string | undefined,
  gitConfig: typeof gitConfigRunsPrograms = gitConfigRunsPrograms,
): string | null {
  if (spec.readOnly) return null;
  if (spec.name === 'file_editor')
    return args.command === 'view' ? null : `file_editor ${String(args.command)} changes files`;
  if (spec.name === 'terminal') return terminalWriteReason(args, roots, shellCwd, gitConfig);
  return `${spec.name} is not a read-only tool`;
}

function terminalWriteReason(
  args: Readonly<Record<string, unknown>>,
  roots: readonly string[],
  shellCwd: string | undefined,
  gitConfig: typeof gitConfigRunsPrograms,
): string | null {
  const command = typeof args.command === 'string' ? args.command : '';
  if (args.reset === true) return 'restarting the shell stops what runs in it';
  if (args.is_input === true) {
    // Reading more output or stopping the command is fine; typing into it cannot be checked.
    return command === '' || /^C-c$/i.test(command.trim())
      ? null
      : 'typing into a running command cannot be checked';
  }
  const verdict = commandReadOnly(command, {
    roots,
    ...(shellCwd ? { cwd: shellCwd } : {}),
    gitConfigRunsPrograms: gitConfig,
  });
  return verdict.readOnly ? null : `\`${command}\` is not read-only (${verdict.reason})`;
}

/**
 * The request's messages with the plan-mode instructions added to the system prompt (one system
 * message: some providers take no second one).
 */
export function withPlanModePrompt(messages: readonly ChatMessage[]): ChatMessage[] {
  const first = messages[0];
  return first?.role === 'system'
    ? [{ role: 'system', content: `${first.content}\n\n${PLAN_MODE_PROMPT}` }, ...messages.slice(1)]
    : [{ role: 'system', content: PLAN_MODE_PROMPT }, ...messages];
}

/** The user's go-ahead for a plan, in the user's words: the plan, as approved, follows. */
export const PLAN_APPROVAL_LEAD = 'Go ahead with this plan:';

/**
 * What the model is told with the go-ahead (as the message's context, not as the user's words):
 * the switch itself is the `agent_mode` update recorded just before.
 */
export const ACT_AFTER_PLAN_NOTE =
  'The user approved the plan and switched the conversation to act mode: you may now change files and run commands. Carry the plan out step by step, keeping the task list up to date with task_tracker.';

/** The user message that approves a plan: the plan, as approved, step by step. */
export function approvedPlanMessage(tasks: readonly Task[]): string {
  const lines = tasks.map((t, i) => {
    const notes = t.notes.trim() ? `\n   ${t.notes.trim().replace(/\n/g, '\n   ')}` : '';
    // A step already done while planning (reading, say) is not to be done again.
    return `${i + 1}. ${t.title}${t.status === 'done' ? ' (done)' : ''}${notes}`;
  });
  return [PLAN_APPROVAL_LEAD, '', ...lines].join('\n');
}
