// The run of a conversation: steps until the agent finishes, waits for the user, is paused, fails or
// reaches its step limit, with the hooks at a stop and a wait. It owns what a run shares with the
// pause and interrupt buttons (the run in flight, its abort and pause signals); the steps themselves
// come from conversation.ts, which wires the agent's step and the dispatcher.
import type { ActionEvent } from '../events';
import { EventStoreError } from '../log/event-store';
import type { ExecutionStatus } from '../state';
import type { DispatchOutcome } from './action-dispatcher';
import type { StepOutcome } from './agent-step';
import type { ConversationHooks } from './conversation-hooks';
import type { ConversationJournal } from './conversation-journal';
import { answerWithError, STOPPED_BEFORE_RUN } from './conversation-recovery';
import type { ConversationPolicies } from './policies/policy';

export interface RunParts {
  journal: ConversationJournal;
  policies: ConversationPolicies;
  hooks: ConversationHooks;
  readOnly(): boolean;
  status(): ExecutionStatus;
  awaitingConfirmation(): ActionEvent[];
  /** The pending actions as they will run. */
  pending(): ActionEvent[];
  /** Completes what the stuck detector reads (an open from a snapshot defers part of it). */
  settleRecent(): Promise<void>;
  /** Whether the agent has not acted yet (the SessionStart hooks' `startup`). */
  firstRun(): boolean;
  /** One unit of progress: the pending actions dispatched, or the agent's step. */
  step(): Promise<StepOutcome | DispatchOutcome>;
  /** The step limit in force, and the user's own (a lower one in force is the agent's grant's). */
  maxIterations(): { bound: number; own: number };
  agentName(): string | undefined;
}

export class RunLoop {
  private runPromise: Promise<ExecutionStatus> | undefined;
  private abort: AbortController | undefined;
  private pauseRequested = false;
  /** Aborted by a pause: delegated agents running now stop at their next step. */
  private pausing = new AbortController();

  constructor(private readonly parts: RunParts) {}

  get running(): boolean {
    return this.runPromise !== undefined;
  }

  /** A signal for the LLM call or tool about to start, aborted by an interrupt. */
  abortable(): AbortSignal {
    this.abort = new AbortController();
    return this.abort.signal;
  }

  get pauseSignal(): AbortSignal {
    return this.pausing.signal;
  }

  /** Runs the agent until it finishes, waits for confirmation, is paused, gets stuck, fails or hits the limit. */
  run(): Promise<ExecutionStatus> {
    if (!this.runPromise) {
      this.runPromise = this.loop()
        .catch((err: unknown) => this.stopOnLogFailure(err))
        .finally(() => {
          this.runPromise = undefined;
          this.abort = undefined;
        });
    }
    return this.runPromise;
  }

  /** Asks the run in flight to stop between steps and waits for it; false when none runs. */
  async pause(): Promise<boolean> {
    if (!this.runPromise) return false;
    this.pauseRequested = true;
    this.pausing.abort();
    await this.runPromise;
    return true;
  }

  /** Cancels the LLM call or tool in flight and waits for the run to end. */
  async interrupt(): Promise<void> {
    this.pauseRequested = true;
    this.abort?.abort(new Error('interrupted by the user'));
    await this.runPromise;
  }

  /**
   * An append failed (a full disk...), so the loop cannot go on. The failure is recorded if the log
   * takes it now (after ENOSPC the segment store frees a reserve for this), so no reader finds the
   * conversation still `running`; if it does not, the error goes to the caller as it was.
   */
  private async stopOnLogFailure(err: unknown): Promise<ExecutionStatus> {
    if (!(err instanceof EventStoreError) || err.code !== 'IO_FAILED') throw err;
    await this.parts.journal
      .fail(
        'log_write_failed',
        `The conversation's log could not be written, so the agent stopped (${err.message}). ` +
          'Free disk space, then resume the conversation.',
      )
      .catch(() => undefined);
    if (this.parts.status() !== 'error') throw err;
    return this.parts.status();
  }

  private async loop(): Promise<ExecutionStatus> {
    const parts = this.parts;
    this.pauseRequested = false;
    this.pausing = new AbortController();
    if (parts.readOnly()) return parts.status();
    if (parts.status() === 'waiting_for_confirmation' && parts.awaitingConfirmation().length > 0)
      return parts.status();
    await parts.journal.setStatus('running');
    await parts.settleRecent();
    parts.hooks.beginRun();
    await parts.hooks.startSession(() => parts.firstRun());
    await parts.policies.prepare();
    let steps = 0;
    let stopHookActive = false;
    for (;;) {
      // A SessionStart hook, or one of the step before, asked the agent to stop.
      if (await parts.hooks.haltIfAsked(parts.pending())) break;
      if (this.pauseRequested) {
        await parts.journal.pause();
        break;
      }
      const { bound: limit, own } = parts.maxIterations();
      if (steps >= limit) {
        const whose =
          limit < own
            ? `the limit of the ${parts.agentName() ?? 'running'} agent's grant`
            : 'the limit (logbook.maxIterations)';
        await parts.journal.fail(
          'iteration_limit',
          `The agent took ${steps} steps in this run, ${whose}. Resume to let it continue.`,
        );
        break;
      }
      const outcome = await parts.step();
      await parts.policies.afterStep();
      if (outcome === 'stopped') {
        await answerWithError(parts.journal, parts.pending(), STOPPED_BEFORE_RUN);
        await parts.journal.pause();
        break;
      }
      if (outcome === 'paused') {
        await parts.journal.pause();
        break;
      }
      // A hook's `continue: false`: the step it ran in is over, the run ends with its reason.
      if (outcome !== 'finished' && outcome !== 'error' && (await parts.hooks.haltIfAsked(parts.pending())))
        break;
      if (outcome === 'llm') steps++;
      if (outcome === 'finished' && (await parts.hooks.stop(stopHookActive)) === 'go on') {
        // Once a run: a Stop hook that always blocks must not keep the agent going forever.
        stopHookActive = true;
        continue;
      }
      if (outcome === 'waiting') {
        await parts.hooks.notify('Notification', {
          message: 'The agent waits for your confirmation.',
          pending: parts.awaitingConfirmation().map((a) => a.tool_name),
        });
        // Its `continue: false` ends the wait too: what waited is answered as not run.
        if (await parts.hooks.haltIfAsked(parts.pending())) break;
      }
      if (outcome === 'finished' || outcome === 'waiting' || outcome === 'error') break;
      if ((await parts.policies.beforeNextStep()) === 'stop') break;
    }
    return parts.status();
  }
}
