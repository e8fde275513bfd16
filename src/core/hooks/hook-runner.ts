// Runs the hooks that match an event, each as the user's own program (through the host's
// HookExecPort, outside the agent's sandbox), and records every run in the conversation's log:
// which hook, a digest of what it was given, its decision, its output and how long it took. The
// journal redacts known secrets from the record as from any event.
import crypto from 'node:crypto';
import type { ConversationLog } from '../agent/conversation-journal';
import { type ConfiguredHook, type HookEventName, type HookOrigin, matchesTool } from './hook-config';
import { type HookDecision, type HookOutcome, type HookProcessResult, readHookOutcome } from './hook-output';

/** Key of the ConversationStateUpdateEvent that records one hook run (the reducer ignores it). */
export const HOOK_RUN_KEY = 'hook_run';

/** Starts one hook program, gives it `stdin`, and stops it after `timeoutMs`. */
export interface HookExecPort {
  run(command: string, stdin: string, opts: { cwd: string; timeoutMs: number }): Promise<HookProcessResult>;
}

/** Output kept in the record, per stream. */
const KEPT_OUTPUT = 4000;

export interface HookRunRecord {
  event: HookEventName;
  origin: HookOrigin;
  matcher: string;
  command: string;
  action_id?: string;
  tool_name?: string;
  /** SHA-256 of the JSON the hook read on stdin. */
  input_sha256: string;
  status: HookOutcome['status'];
  decision: HookDecision;
  reason?: string;
  updated_input?: Record<string, unknown>;
  additional_context?: string;
  stop?: string;
  system_message?: string;
  exit_code: number | null;
  timed_out?: true;
  duration_ms: number;
  stdout?: string;
  stderr?: string;
}

/** The runs of one event's hooks, in the order they are configured. */
export interface HookRound {
  runs: HookRunRecord[];
}

export interface HookRunnerDeps {
  /** The hooks in effect now (a repository's only once the user accepted them). */
  hooks: () => readonly ConfiguredHook[];
  exec: HookExecPort;
  cwd: string;
  conversationId: string;
  /** Where the log is on disk, for `transcript_path`; none: empty. */
  transcriptPath?: string;
}

export class HookRunner {
  constructor(private readonly deps: HookRunnerDeps) {}

  /** Whether any hook is configured for `event` (nothing else is done when none is). */
  has(event: HookEventName): boolean {
    return this.deps.hooks().some((h) => h.event === event);
  }

  /**
   * Runs the hooks of `event` that match (tool events: by `toolNames`), one after another, with
   * the common fields added to `input`; each run is appended to `log`.
   */
  async run(
    log: ConversationLog,
    event: HookEventName,
    input: Record<string, unknown>,
    opts: { toolNames?: readonly string[]; actionId?: string; toolName?: string } = {},
  ): Promise<HookRound> {
    const matching = this.deps
      .hooks()
      .filter((h) => h.event === event && (!opts.toolNames || matchesTool(h.matcher, opts.toolNames)));
    const runs: HookRunRecord[] = [];
    if (!matching.length) return { runs };
    const stdin = JSON.stringify({
      session_id: this.deps.conversationId,
      transcript_path: this.deps.transcriptPath ?? '',
      cwd: this.deps.cwd,
      hook_event_name: event,
      ...input,
    });
    const digest = crypto.hash('sha256', stdin, 'hex');
    for (const hook of matching) {
      const result = await this.deps.exec.run(hook.command, stdin, {
        cwd: this.deps.cwd,
        timeoutMs: hook.timeoutSeconds * 1000,
      });
      const outcome = readHookOutcome(event, result, hook.timeoutSeconds);
      const record = toRecord(hook, digest, result, outcome, opts);
      runs.push(record);
      // Not synced on its own: the action's durable start (or the next durable event) carries it to disk.
      await log.append('ConversationStateUpdateEvent', { key: HOOK_RUN_KEY, value: record });
    }
    return { runs };
  }
}

function toRecord(
  hook: ConfiguredHook,
  digest: string,
  r: HookProcessResult,
  o: HookOutcome,
  opts: { actionId?: string; toolName?: string },
): HookRunRecord {
  const cut = (s: string) =>
    s.length > KEPT_OUTPUT ? `${s.slice(0, KEPT_OUTPUT)}… (${s.length} characters)` : s;
  return {
    event: hook.event,
    origin: hook.origin,
    matcher: hook.matcher,
    command: hook.command,
    ...(opts.actionId ? { action_id: opts.actionId } : {}),
    ...(opts.toolName ? { tool_name: opts.toolName } : {}),
    input_sha256: digest,
    status: o.status,
    decision: o.decision,
    ...(o.reason ? { reason: o.reason } : {}),
    ...(o.updatedInput ? { updated_input: o.updatedInput } : {}),
    ...(o.additionalContext ? { additional_context: o.additionalContext } : {}),
    ...(o.stop ? { stop: o.stop } : {}),
    ...(o.systemMessage ? { system_message: o.systemMessage } : {}),
    exit_code: r.exitCode,
    ...(r.timedOut ? { timed_out: true as const } : {}),
    duration_ms: Math.round(r.durationMs),
    ...(r.stdout ? { stdout: cut(r.stdout) } : {}),
    ...(r.stderr ? { stderr: cut(r.stderr) } : {}),
  };
}

/** A PreToolUse round's verdict: a failure or deny wins, then ask, then allow (Claude Code's order). */
export interface PreToolVerdict {
  decision: 'allow' | 'deny' | 'ask' | 'none';
  reason?: string;
  /** The hook that decided, as its command line. */
  by?: string;
  updatedInput?: Record<string, unknown>;
}

export function preToolVerdict(runs: readonly HookRunRecord[]): PreToolVerdict {
  const by = (r: HookRunRecord) => r.command;
  const failed = runs.find((r) => r.status === 'failed');
  if (failed)
    return { decision: 'deny', reason: `the hook failed: ${failed.reason ?? 'no reason'}`, by: by(failed) };
  // `continue: false`: the agent stops, so the action it was asked about does not run either.
  const stop = runs.find((r) => r.stop);
  if (stop) return { decision: 'deny', reason: `it asked the agent to stop: ${stop.stop}`, by: by(stop) };
  const deny = runs.find((r) => r.decision === 'deny');
  if (deny) return { decision: 'deny', reason: deny.reason ?? 'denied by a hook', by: by(deny) };
  const rewrite = runs.find((r) => r.updated_input);
  const extra = rewrite?.updated_input ? { updatedInput: rewrite.updated_input } : {};
  const ask = runs.find((r) => r.decision === 'ask');
  if (ask) return { decision: 'ask', ...(ask.reason ? { reason: ask.reason } : {}), by: by(ask), ...extra };
  const allow = runs.find((r) => r.decision === 'allow');
  if (allow)
    return { decision: 'allow', ...(allow.reason ? { reason: allow.reason } : {}), by: by(allow), ...extra };
  return { decision: 'none', ...(rewrite ? { by: by(rewrite) } : {}), ...extra };
}
