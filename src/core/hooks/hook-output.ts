// What one hook run means, read from its exit code and output the way Claude Code documents it:
// exit 0 is success (stdout may hold a JSON decision), exit 2 blocks with stderr as the reason,
// any other exit is an error. Logbook is stricter in one place: a PreToolUse hook that fails (an
// error exit, a timeout, output that is neither empty nor JSON) blocks its action, since a check
// that could not answer has not said yes.
import type { HookEventName } from './hook-config';

export interface HookProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  /** Why it could not start (a missing shell), when it did not. */
  spawnError?: string;
}

export type HookDecision = 'allow' | 'deny' | 'ask' | 'block' | 'none';

export interface HookOutcome {
  /** 'ok': it answered; 'blocked': exit 2; 'failed': error exit, timeout or unreadable output. */
  status: 'ok' | 'blocked' | 'failed';
  decision: HookDecision;
  reason?: string;
  /** PreToolUse: the arguments it asks the action to run with instead. */
  updatedInput?: Record<string, unknown>;
  /** Text for the model (PostToolUse, UserPromptSubmit, SessionStart). */
  additionalContext?: string;
  /** `continue: false`: the agent stops after this step, with this reason. */
  stop?: string;
  /** Shown to the user. */
  systemMessage?: string;
}

const PERMISSIONS = new Set(['allow', 'deny', 'ask']);
/** Events whose plain (non-JSON) stdout is context for the model, as in Claude Code. */
const PLAIN_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

export function readHookOutcome(
  event: HookEventName,
  r: HookProcessResult,
  timeoutSeconds: number,
): HookOutcome {
  const failed = (reason: string): HookOutcome => ({ status: 'failed', decision: 'none', reason });
  if (r.spawnError) return failed(`the hook could not start: ${r.spawnError}`);
  if (r.timedOut)
    return failed(`the hook did not finish within its timeout of ${timeoutSeconds} s and was stopped`);
  if (r.exitCode === 2) {
    const reason = r.stderr.trim() || 'the hook blocked it (exit code 2) without saying why';
    return { status: 'blocked', decision: event === 'PreToolUse' ? 'deny' : 'block', reason };
  }
  if (r.exitCode !== 0) {
    const said = r.stderr.trim() || r.stdout.trim();
    return failed(`the hook exited with code ${r.exitCode ?? 'none'}${said ? `: ${firstLines(said)}` : ''}`);
  }
  const text = r.stdout.trim();
  if (!text) return { status: 'ok', decision: 'none' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (PLAIN_CONTEXT.has(event)) return { status: 'ok', decision: 'none', additionalContext: text };
    // Plain text is how Claude Code's hooks log for the user; a PreToolUse hook must answer in JSON or not at all.
    if (event !== 'PreToolUse') return { status: 'ok', decision: 'none' };
    return failed(`the hook's output is not JSON: ${firstLines(text)}`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    return failed(`the hook's output is JSON but not an object: ${firstLines(text)}`);
  return readJson(event, json as Record<string, unknown>);
}

function readJson(event: HookEventName, o: Record<string, unknown>): HookOutcome {
  const out: HookOutcome = { status: 'ok', decision: 'none' };
  const specific = (o['hookSpecificOutput'] ?? {}) as Record<string, unknown>;
  if (typeof specific !== 'object' || specific === null)
    return { status: 'failed', decision: 'none', reason: 'hookSpecificOutput is not an object' };
  if (typeof o['systemMessage'] === 'string') out.systemMessage = o['systemMessage'];
  if (o['continue'] === false)
    out.stop = typeof o['stopReason'] === 'string' ? o['stopReason'] : 'a hook asked the agent to stop';
  if (typeof specific['additionalContext'] === 'string')
    out.additionalContext = specific['additionalContext'];
  if (event === 'PreToolUse') {
    const p = specific['permissionDecision'];
    if (p !== undefined) {
      if (typeof p !== 'string' || !PERMISSIONS.has(p))
        return {
          status: 'failed',
          decision: 'none',
          reason: `permissionDecision must be allow, deny or ask, not ${JSON.stringify(p)}`,
        };
      out.decision = p as HookDecision;
      if (typeof specific['permissionDecisionReason'] === 'string')
        out.reason = specific['permissionDecisionReason'];
    } else if (o['decision'] === 'approve' || o['decision'] === 'block') {
      // The older top-level form Claude Code still reads.
      out.decision = o['decision'] === 'approve' ? 'allow' : 'deny';
      if (typeof o['reason'] === 'string') out.reason = o['reason'];
    }
    const updated = specific['updatedInput'];
    if (updated !== undefined) {
      if (!updated || typeof updated !== 'object' || Array.isArray(updated))
        return { status: 'failed', decision: 'none', reason: 'updatedInput is not an object' };
      out.updatedInput = updated as Record<string, unknown>;
    }
    return out;
  }
  if (o['decision'] === 'block') {
    out.decision = 'block';
    out.reason = typeof o['reason'] === 'string' ? o['reason'] : 'a hook blocked it';
  }
  return out;
}

function firstLines(text: string): string {
  const short = text.split('\n').slice(0, 3).join(' ⏎ ');
  return short.length > 300 ? `${short.slice(0, 300)}…` : short;
}
