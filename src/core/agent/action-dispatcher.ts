// The pending actions of a step, each through three stages. Gate: nothing runs that waits for the
// user (the confirmation policy, an action in doubt after a crash, a rating that rose since its
// approval, recheck.ts) or that a policy refuses now (plan mode). Run: checkpoints around it, its
// start recorded durably (a crash leaves it in doubt, not forgotten), its tool executed. Observe:
// its result appended, so every call the model made is answered exactly once.
import type { ActionEvent, CreateFields, SecurityRisk } from '../events';
import { ACTION_STARTED_KEY, RECONFIRM_KEY, UNASKED_KEY, unaskedReason, type Unasked } from '../state';
import type { ToolPorts, ToolSpec } from '../tools';
import type { ActionCheckpoints } from './action-checkpoints';
import type { ConversationLog } from './conversation-journal';
import {
  executeAction,
  interruptedObservation,
  refusedObservation,
  type ObservationFields,
} from './execute-action';
import type { ConfirmationGate } from './ports';
import type { ConversationPolicies } from './policies/policy';
import { recheckBeforeRun } from './recheck';
import { SuspendAction } from '../tools/suspend';

export type DispatchOutcome = 'executed' | 'finished' | 'stopped' | 'waiting' | 'paused';

export interface DispatcherDeps {
  log: ConversationLog;
  /** The actions pending now, read from the state at each use. */
  pending: () => ActionEvent[];
  gate: ConfirmationGate;
  policies: ConversationPolicies;
  checkpoints: ActionCheckpoints;
  /** The tools an action runs with. */
  tools: () => ToolSpec[];
  /** The ports the tools act through (secrets guarded). */
  ports: () => ToolPorts;
  cwd: string;
  /** A new signal for this batch: the conversation's interrupt aborts it. */
  abortable: () => AbortSignal;
  /** Aborted when the user pauses the run (a delegation pauses its agents, then suspends). */
  pauseSignal?: () => AbortSignal;
  /** Descriptions of edits the user made to the agent's changes since the last call (asked before each action runs). */
  userEditNotes?: () => string[];
  /** After an action ran: notes for the model about it (the PostToolUse hooks' context or objection). */
  afterRun?: (action: ActionEvent, observation: ObservationFields) => Promise<string[]>;
}

export class ActionDispatcher {
  /** The action this process is running now: never also waiting for the user. */
  private executing: string | undefined;

  constructor(private readonly deps: DispatcherDeps) {}

  /** The pending actions the user must still confirm (empty when nothing waits). */
  awaiting(): ActionEvent[] {
    const { state } = this.deps.log;
    const pending = this.deps.pending();
    const approved = new Set(state.approved);
    // The action running now is not asked about: it was let through, and it is running (its
    // ACTION_STARTED makes it look in doubt until its result is recorded).
    const open = pending.filter((a) => !approved.has(a.id) && a.id !== this.executing);
    const decisions = this.deps.gate.decide(open);
    // An action that started before a crash may have had its effect: only the user may re-run
    // (approve) or skip (reject) it, whatever the confirmation policy says.
    const inDoubt = new Set(state.inDoubt);
    return open.filter((a) => inDoubt.has(a.id) || decisions.find((d) => d.actionId === a.id)?.confirm);
  }

  /** Runs the pending batch in order, or waits for the user as soon as one must be asked about. */
  async dispatch(pending: readonly ActionEvent[]): Promise<DispatchOutcome> {
    const { log } = this.deps;
    await this.readCoverage(pending);
    if (this.awaiting().length) {
      await log.setStatus('waiting_for_confirmation');
      return 'waiting';
    }
    const signal = this.deps.abortable();
    // Nothing has run since the coverage was read for the whole batch.
    let ranSinceRead = false;
    for (const action of pending) {
      if (signal.aborted) {
        await this.observe(interruptedObservation(action));
        continue;
      }
      // What ran before it may have changed what the checkpoints hold (a large file written).
      if (ranSinceRead) await this.readCoverage([action]);
      ranSinceRead = true;
      const gated = await this.gate(action);
      if (gated === 'wait') return 'waiting';
      if (gated !== 'run') {
        await this.observe(refusedObservation(action, gated.refused));
        continue;
      }
      this.executing = action.id;
      try {
        const unasked = this.containedUnasked(action);
        const checkpointed = await this.deps.checkpoints.before(action);
        if (unasked && !checkpointed) {
          // It ran unasked only because a checkpoint would undo it: without one, the user decides.
          this.deps.gate.setCoverage?.(null);
          await log.setStatus('waiting_for_confirmation');
          return 'waiting';
        }
        if (unasked) await this.recordUnasked(action);
        await this.observe(await this.run(action, signal, checkpointed));
      } catch (err) {
        if (!(err instanceof SuspendAction)) throw err;
        // Its delegated agents were paused with the run: it goes on when the run resumes.
        if (err.reason === 'paused') return 'paused';
        // A delegated agent waits for the user: this action is answered when it runs again.
        await log.setStatus('waiting_for_confirmation');
        return 'waiting';
      } finally {
        this.executing = undefined;
      }
    }
    if (signal.aborted) return 'stopped';
    if (log.state.status === 'finished') return 'finished';
    return 'executed';
  }

  /** Whether the action runs now, waits for the user (recorded), or is refused by a policy. */
  private async gate(action: ActionEvent): Promise<'run' | 'wait' | { refused: string }> {
    const { log, gate, policies } = this.deps;
    // Recorded in act mode, approved after a switch to plan mode: plan mode still only reads.
    const refused = policies.refuseAction(action);
    if (refused) return { refused };
    // What ran before it in this batch may have changed where its paths lead: rated again, an
    // action whose risk rose past its approval waits for the user, and so does the rest.
    const again = recheckBeforeRun(gate, action, this.approvedRisk(action.id));
    if (again) {
      await log.append('ConversationStateUpdateEvent', { key: RECONFIRM_KEY, value: again }, true);
      await log.setStatus('waiting_for_confirmation');
      return 'wait';
    }
    // Never both run and asked: what waits for the user does not start (the policy may have
    // changed since the batch was let through), and what starts is no longer asked about.
    if (this.awaiting().some((a) => a.id === action.id)) {
      await log.setStatus('waiting_for_confirmation');
      return 'wait';
    }
    return 'run';
  }

  /** Runs one action that may run: its checkpoints, its start, its result. */
  private async run(
    action: ActionEvent,
    signal: AbortSignal,
    checkpointed: boolean,
  ): Promise<ObservationFields> {
    const { log, checkpoints } = this.deps;
    // Asked before the action runs: what changed since the agent's last edit is someone else's
    // doing. Asked after it, this action's own writes (recorded only with its observation) would
    // read as the user's.
    const notes = this.deps.userEditNotes?.() ?? [];
    // A resumable action is run again after a crash, never left in doubt: its start is not recorded.
    if (!this.deps.tools().find((t) => t.name === action.tool_name)?.resumable)
      await log.append(
        'ConversationStateUpdateEvent',
        { key: ACTION_STARTED_KEY, value: { action_id: action.id } },
        true,
      );
    const observation = await executeAction(action, this.deps.tools(), {
      ports: this.deps.ports(),
      cwd: this.deps.cwd,
      signal,
      ...(this.deps.pauseSignal ? { pause: this.deps.pauseSignal() } : {}),
    });
    // Also when it failed or was interrupted: whatever it left is the agent's, not the user's.
    if (checkpointed) await checkpoints.after(action);
    const after = (await this.deps.afterRun?.(action, observation)) ?? [];
    if (after.length)
      observation.observation = {
        ...observation.observation,
        content: [
          ...observation.observation.content,
          ...after.map((text) => ({ type: 'text' as const, text })),
        ],
      };
    if (notes.length) {
      // The user changed files while reviewing: the agent must know before it edits them again.
      const note = `Note: since your last change the user edited these files themselves:\n${notes.join('\n')}`;
      observation.observation = {
        ...observation.observation,
        content: [...observation.observation.content, { type: 'text', text: note }],
      };
    }
    return observation;
  }

  private async observe(observation: ObservationFields): Promise<void> {
    await this.deps.log.append('ObservationEvent', observation as CreateFields<'ObservationEvent'>);
  }

  /** Reads what a checkpoint would hold, when the gate weighs it for these actions. */
  private async readCoverage(actions: readonly ActionEvent[]): Promise<void> {
    const { gate, checkpoints } = this.deps;
    if (gate.wantsCoverage?.(actions)) gate.setCoverage?.(await checkpoints.coverage());
  }

  /** Whether the action runs without the user's approval only because it is contained. */
  private containedUnasked(action: ActionEvent): boolean {
    if (this.deps.log.state.approved.includes(action.id)) return false;
    return this.deps.gate.decide([action])[0]?.contained === true;
  }

  /** Why no question was asked, on the record beside the action (the chat and the CLI show it). */
  private async recordUnasked(action: ActionEvent): Promise<void> {
    const checkpoint = this.deps.checkpoints.lastCheckpoint();
    const value: Unasked = {
      action_id: action.id,
      reason: unaskedReason('contained', checkpoint),
      ...(checkpoint ? { checkpoint } : {}),
    };
    await this.deps.log.append('ConversationStateUpdateEvent', { key: UNASKED_KEY, value });
  }

  /** The risk a pending action was approved at: the user's approval, else LOW (let through unasked). */
  private approvedRisk(actionId: string): SecurityRisk {
    const { approved, approvedRisks } = this.deps.log.state;
    if (!approved.includes(actionId) || !Object.hasOwn(approvedRisks, actionId)) return 'LOW';
    return approvedRisks[actionId]!;
  }
}
