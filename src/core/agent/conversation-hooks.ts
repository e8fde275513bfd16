// The user's hooks at the conversation's own moments (docs/HOOKS.md): a prompt submitted, the agent
// stopping, a wait for confirmation, a session's start and end, a compaction. Apart from
// conversation.ts so the loop reads as steps; the hooks around tools are in hooks/tool-hooks.ts.
import type { CreateFields } from '../events';
import type { HookRunner } from '../hooks/hook-runner';
import { WordedError } from '../text/l10n';
import type { ConversationJournal } from './conversation-journal';

export type NoticeEvent =
  'Stop' | 'SubagentStop' | 'Notification' | 'SessionStart' | 'SessionEnd' | 'PreCompact';

export class ConversationHooks {
  /** Whether this process ran the conversation: only then does it end a session. */
  private sessionStarted = false;

  constructor(
    private readonly hooks: HookRunner | undefined,
    private readonly journal: ConversationJournal,
    private readonly readOnly: () => boolean,
    /** A delegated agent stops with SubagentStop rather than Stop. */
    private readonly delegated: boolean,
  ) {}

  /**
   * The UserPromptSubmit hooks: what they add for the model; a hook that blocks the message (or
   * fails) stops it before it is recorded, with the hook's reason (its run is recorded).
   */
  async prompt(prompt: string): Promise<string[]> {
    if (!this.hooks?.has('UserPromptSubmit') || this.readOnly()) return [];
    const { runs } = await this.hooks.run(this.journal, 'UserPromptSubmit', { prompt });
    const stop = runs.find((r) => r.status !== 'ok' || r.decision === 'block');
    if (stop)
      throw new WordedError((l10n) =>
        l10n.t('The hook `{0}` did not let this message through: {1}', stop.command, stop.reason ?? ''),
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
    const block = active ? undefined : runs.find((r) => r.decision === 'block' || r.status === 'blocked');
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
