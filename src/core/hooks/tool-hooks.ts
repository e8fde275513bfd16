// The hooks around each action: PreToolUse before the gate judges it, PostToolUse after it ran.
// A PreToolUse verdict is kept by action (and read back from the log when a conversation is opened
// again, so `logbook approve` in a new process sees it): "deny" or a failed hook refuses the
// action; "ask" makes it wait for the user whatever the rules say; "allow" skips the question only
// where the rules alone would not insist (never for what they rate HIGH); and `updatedInput` makes
// a new action that is validated by its tool and rated by the same gate as any other. Plan mode,
// the sandbox and the file tools' own write boundary are policies and ports the hooks never touch.
import type { ConversationLog } from '../agent/conversation-journal';
import type { ObservationFields } from '../agent/execute-action';
import type { ConfirmationDecision, ConfirmationGate } from '../agent/ports';
import type { ActionEvent, Event } from '../events';
import { type ToolSpec, validateToolCall } from '../tools';
import {
  HOOK_RUN_KEY,
  type HookRunner,
  type HookRunRecord,
  type PreToolVerdict,
  preToolVerdict,
} from './hook-runner';
import { claudeToolCall, logbookArgs, matcherNames } from './tool-names';

/** The action as a hook rewrote it, or the reason the rewrite cannot run. */
type Rewritten = { action: ActionEvent } | { invalid: string };

export class ToolHooks {
  private readonly runs = new Map<string, HookRunRecord[]>();
  private readonly verdicts = new Map<string, PreToolVerdict>();
  private readonly rewritten = new Map<string, Rewritten>();

  constructor(
    private readonly runner: HookRunner,
    private readonly tools: () => readonly ToolSpec[],
    /** 'act' or 'plan', given to the hooks as `permission_mode`. */
    private readonly mode: () => string,
  ) {}

  /** Takes in a recorded hook run (a new one, or one read back when the conversation opened). */
  absorb(event: Event): void {
    if (event.kind !== 'ConversationStateUpdateEvent' || event.key !== HOOK_RUN_KEY) return;
    const r = event.value as HookRunRecord;
    if (r.event !== 'PreToolUse' || !r.action_id) return;
    const list = this.runs.get(r.action_id) ?? [];
    list.push(r);
    this.runs.set(r.action_id, list);
    this.verdicts.set(r.action_id, preToolVerdict(list));
    this.rewritten.delete(r.action_id);
  }

  /** Runs the PreToolUse hooks of the actions that have no verdict yet. */
  async beforeTools(log: ConversationLog, pending: readonly ActionEvent[]): Promise<void> {
    if (!this.runner.has('PreToolUse')) return;
    for (const action of pending) {
      if (this.verdicts.has(action.id)) continue;
      const args = argsOf(action);
      const call = claudeToolCall(action.tool_name, args);
      const round = await this.runner.run(
        log,
        'PreToolUse',
        {
          permission_mode: this.mode(),
          tool_name: call.name,
          tool_input: call.input,
          tool_use_id: action.tool_call_id,
          logbook_tool: { name: action.tool_name, arguments: args },
        },
        { toolNames: matcherNames(action.tool_name, args), actionId: action.id, toolName: action.tool_name },
      );
      // No hook matched: nothing to decide, and no need to ask again.
      if (!round.runs.length) this.verdicts.set(action.id, { decision: 'none' });
    }
  }

  verdict(actionId: string): PreToolVerdict | undefined {
    return this.verdicts.get(actionId);
  }

  /** The action as it will run: rewritten when a hook gave `updatedInput` that its tool accepts. */
  effective(action: ActionEvent): ActionEvent {
    const r = this.rewrite(action);
    return r && 'action' in r ? r.action : action;
  }

  /** Why the action may not run: a hook denied it, failed, or rewrote it into an invalid call. */
  refusal(action: ActionEvent): string | null {
    const v = this.verdicts.get(action.id);
    if (!v) return null;
    if (v.decision === 'deny')
      return `Blocked by the hook \`${v.by ?? '?'}\`: ${v.reason ?? 'no reason given'}`;
    const r = this.rewrite(action);
    if (r && 'invalid' in r)
      return `The hook \`${v.by ?? '?'}\` rewrote this call into one that cannot run: ${r.invalid}`;
    return null;
  }

  /** The gate with the hooks' verdicts applied on top of the rules and the user's policy. */
  gate(inner: ConfirmationGate): ConfirmationGate {
    const decide = (actions: readonly ActionEvent[]): ConfirmationDecision[] =>
      inner.decide(actions).map((d) => {
        const v = this.verdicts.get(d.actionId);
        if (!v) return d;
        if (v.updatedInput)
          d = { ...d, riskReasons: [...(d.riskReasons ?? []), `rewritten by the hook \`${v.by ?? '?'}\``] };
        if (v.decision === 'none' || v.decision === 'deny') return d;
        const who = `the hook \`${v.by ?? '?'}\``;
        const why = v.reason ? `: ${v.reason}` : '';
        if (v.decision === 'ask') {
          const { contained: _c, ...rest } = d;
          const asks = `${who} asks for your confirmation${why}`;
          // In the risks too: the CLI's question and the chat's card list them.
          return { ...rest, confirm: true, reasons: [asks], riskReasons: [...(d.riskReasons ?? []), asks] };
        }
        // allow: stronger than an allow rule, never past what the rules themselves rate HIGH.
        if (!d.confirm || d.ruled?.risk === 'HIGH' || d.risk === 'HIGH') return d;
        return { ...d, confirm: false, reasons: [`allowed by ${who}${why}`] };
      });
    const wrapped: ConfirmationGate = { decide };
    if (inner.shellCwdNow) wrapped.shellCwdNow = () => inner.shellCwdNow!();
    if (inner.wantsCoverage) wrapped.wantsCoverage = (actions) => inner.wantsCoverage!(actions);
    if (inner.setCoverage) wrapped.setCoverage = (c) => inner.setCoverage!(c);
    return wrapped;
  }

  /**
   * Runs the PostToolUse hooks; returns what they tell the model (their additional context, and
   * the reason when one blocks), added to the observation.
   */
  async afterTool(
    log: ConversationLog,
    action: ActionEvent,
    observation: ObservationFields,
  ): Promise<string[]> {
    if (!this.runner.has('PostToolUse')) return [];
    const args = argsOf(action);
    const call = claudeToolCall(action.tool_name, args);
    const text = observation.observation.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    const round = await this.runner.run(
      log,
      'PostToolUse',
      {
        permission_mode: this.mode(),
        tool_name: call.name,
        tool_input: call.input,
        tool_use_id: action.tool_call_id,
        tool_response: { output: text, is_error: observation.observation.is_error === true },
        logbook_tool: { name: action.tool_name, arguments: args },
      },
      { toolNames: matcherNames(action.tool_name, args), actionId: action.id, toolName: action.tool_name },
    );
    const notes: string[] = [];
    for (const r of round.runs) {
      if (r.decision === 'block' || r.status === 'blocked')
        notes.push(`Hook \`${r.command}\` (after this action): ${r.reason ?? 'blocked'}`);
      else if (r.status === 'failed')
        notes.push(`Hook \`${r.command}\` failed after this action: ${r.reason ?? ''}`);
      if (r.additional_context) notes.push(r.additional_context);
    }
    return notes;
  }

  private rewrite(action: ActionEvent): Rewritten | undefined {
    const v = this.verdicts.get(action.id);
    if (!v?.updatedInput || v.decision === 'deny') return undefined;
    const known = this.rewritten.get(action.id);
    if (known) return known;
    const original = argsOf(action);
    const next = logbookArgs(action.tool_name, original, v.updatedInput);
    const text = JSON.stringify(next);
    const checked = validateToolCall(this.tools(), action.tool_name, text);
    const out: Rewritten = checked.ok
      ? {
          action: {
            ...action,
            // Fields the tool recorded (where a path led) stay: the tool refuses a call that no longer fits them.
            action: { ...(action.action as Record<string, unknown>), ...checked.action },
            tool_call: { ...action.tool_call, arguments: text },
            // The model's summary described the call it made, not this one.
            summary: null,
          } as ActionEvent,
        }
      : { invalid: checked.error };
    this.rewritten.set(action.id, out);
    return out;
  }
}

function argsOf(action: ActionEvent): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(action.tool_call.arguments);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // the recorded action is what was validated
  }
  return { ...((action.action ?? {}) as Record<string, unknown>) };
}
