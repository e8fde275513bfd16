// The user's hooks at the conversation's own moments (docs/HOOKS.md): a prompt submitted, the agent
// stopping, a wait for confirmation, a session's start and end, a compaction. Apart from
// conversation.ts so the loop reads as steps; the hooks around tools are in hooks/tool-hooks.ts.
// A hook of any event that answers `continue: false` stops the run after the step it ran in, with
// its `stopReason` recorded as the run's error (what Claude Code documents: processing stops, the
// reason is shown to the user).
import type { ActionEvent, CreateFields, Event } from '../events';
import { HOOK_RUN_KEY, type HookRunner, type HookRunRecord } from '../hooks/hook-runner';
import { WordedError } from '../text/l10n';
import type { ConversationJournal } from './conversation-journal';
import { answerWithError } from './conversation-recovery';
import type { ToolHooks } from '../hooks/tool-hooks';
import type { ConversationPolicy } from './policies/policy';

/** A UserPromptSubmit hook did not let the user's message through (nothing was recorded). */
export class HookRefusal extends WordedError {}

export type NoticeEvent =
  'Stop' | 'SubagentStop' | 'Notification' | 'SessionStart' | 'SessionEnd' | 'PreCompact';

export class ConversationHooks {
  /** Whether this process ran the conversation: only then does it end a session. */
  private sessionStarted = false;
  /** The first hook run of this run that asked the agent to stop (`continue: false`). */
  private stopAsked: HookRunRecord | undefined;

  constructor(
    private readonly hooks: HookRunner | undefined,
    private readonly journal: ConversationJournal,
    private readonly readOnly: () => boolean,
    /** A delegated agent stops with SubagentStop rather than Stop. */
    private readonly delegated: boolean,
  ) {
    // Only runs recorded from now on: a stop read back from the log belongs to a run that ended.
    if (hooks) journal.onEvent((e) => this.absorb(e));
  }

  private absorb(e: Event): void {
    if (this.stopAsked || e.kind !== 'ConversationStateUpdateEvent' || e.key !== HOOK_RUN_KEY) return;
    const run = e.value as HookRunRecord;
    if (run.stop) this.stopAsked = run;
  }

  /** A new run starts: a stop asked before it was acted on then. */
  beginRun(): void {
    this.stopAsked = undefined;
  }

  /** Why no further action runs in this run (a hook asked the agent to stop), or null. */
  stopRefusal(): string | null {
    return this.stopAsked ? `Not run: ${stopText(this.stopAsked)}` : null;
  }

  /**
   * Ends the run when a hook asked to stop: the actions still pending are answered (the model reads
   * why), and the stop is recorded as the run's error with the hook's reason. True when it ended.
   */
  async haltIfAsked(pending: readonly ActionEvent[]): Promise<boolean> {
    const asked = this.stopAsked;
    if (!asked) return false;
    this.stopAsked = undefined;
    await answerWithError(this.journal, pending, `Not run: ${stopText(asked)}`);
    await this.journal.fail('hook_stop', stopText(asked));
    return true;
  }

  /**
   * The UserPromptSubmit hooks: what they add for the model; a hook that blocks the message (or
   * fails) stops it before it is recorded, with the hook's reason (its run is recorded).
   */
  async prompt(prompt: string): Promise<string[]> {
    if (!this.hooks?.has('UserPromptSubmit') || this.readOnly()) return [];
    const { runs } = await this.hooks.run(this.journal, 'UserPromptSubmit', { prompt });
    const stop = runs.find((r) => r.status !== 'ok' || r.decision === 'block' || r.stop);
    if (stop)
      throw new HookRefusal((l10n) =>
        l10n.t(
          'The hook `{0}` did not let this message through: {1}',
          stop.command,
          stop.stop ?? stop.reason ?? '',
        ),
      );
    return runs.flatMap((r) => (r.additional_context ? [r.additional_context] : []));
  }

  /** Runs the hooks of an event that only informs (a stop, a wait, a start or end); returns their runs. */
  async notify(event: NoticeEvent, input: Record<string, unknown>) {
    if (!this.hooks?.has(event) || this.readOnly()) return [];
    return (await this.hooks.run(this.journal, event, input)).runs;
  }

  /**
   * The Stop (or, for a delegated agent, SubagentStop) hooks as the agent finishes. One that blocks
   * (exit 2, or `decision: "block"`) sends the agent on with its reason, as a message from the hook,
   * once a run (`stop_hook_active` says whether this is the second stop).
   */
  async stop(active: boolean): Promise<'go on' | 'stop'> {
    const runs = await this.notify(this.delegated ? 'SubagentStop' : 'Stop', { stop_hook_active: active });
    // `continue: false` wins over a block, as in Claude Code: the agent stops.
    const block =
      active || runs.some((r) => r.stop)
        ? undefined
        : runs.find((r) => r.decision === 'block' || r.status === 'blocked');
    if (!block) return 'stop';
    await this.journal.append('MessageEvent', {
      source: 'hook',
      llm_message: {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `The hook \`${block.command}\` asks you not to stop yet: ${block.reason ?? ''}`,
          },
        ],
      },
    } as CreateFields<'MessageEvent'>);
    await this.journal.setStatus('running');
    return 'go on';
  }

  /** The SessionStart hooks, once per process: `first` when the agent has not acted yet. */
  async startSession(first: () => boolean): Promise<void> {
    if (this.sessionStarted) return;
    this.sessionStarted = true;
    await this.notify('SessionStart', { source: first() ? 'startup' : 'resume' });
  }

  /** The SessionEnd hooks, when this process ran the conversation. */
  async endSession(reason: string): Promise<void> {
    if (!this.sessionStarted) return;
    this.sessionStarted = false;
    await this.notify('SessionEnd', { reason });
  }
}

function stopText(run: HookRunRecord): string {
  return `the hook \`${run.command}\` (${run.event}) stopped the agent: ${run.stop ?? ''}`;
}

/** The hooks' refusal of an action: after a hook asked the agent to stop, or by its PreToolUse verdict. */
export function hooksPolicy(hooks: ConversationHooks, tools: ToolHooks): ConversationPolicy {
  return { name: 'hooks', refuseAction: (a) => hooks.stopRefusal() ?? tools.refusal(a) };
}
