// Logbook's own rating of an action an agent-server holds, beside the server's: the same rules the
// local gate applies to a terminal command or a file edit, judged against the working folder on
// the server's machine. The server's agent rates its actions itself; a user deciding on one sees
// both, and Logbook's reasons.
import { analyzeAction, ruleAnalyzer, type SecurityRisk } from '../../../core/security';
import { printableLine } from '../../../core/text/printable';

export interface RemoteRisk {
  /** The security_risk the server's action carries (its agent's own rating). */
  server: string;
  /** Logbook's rules' rating, and why. */
  logbook: SecurityRisk;
  reasons: string[];
}

/** The arguments the tool was called with: the call's own JSON, else the stored action. */
export function argumentsOf(e: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const call = e.tool_call as { arguments?: unknown } | undefined;
  if (typeof call?.arguments === 'string') {
    try {
      const parsed: unknown = JSON.parse(call.arguments);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // fall through to the stored action
    }
  }
  const action = e.action;
  return action && typeof action === 'object' ? { ...(action as Record<string, unknown>) } : {};
}

export function remoteRisk(e: Readonly<Record<string, unknown>>, workingDir: string): RemoteRisk {
  const tool = typeof e.tool_name === 'string' ? e.tool_name : '';
  const analysis = analyzeAction(tool, argumentsOf(e), [workingDir], {
    analyzers: [ruleAnalyzer],
    // The repository's settings live on the server's machine: not read from this one.
    gitConfigRunsPrograms: () => undefined,
  });
  return {
    server: typeof e.security_risk === 'string' ? e.security_risk : 'UNKNOWN',
    logbook: analysis.risk,
    reasons: analysis.reasons,
  };
}

/** The two ratings as the question and `show` print them. */
export function remoteRiskText(r: RemoteRisk): string {
  const why = r.reasons.length > 0 ? `: ${r.reasons.join('; ')}` : '';
  // The reasons quote the command and paths the model chose: printed escaped.
  return printableLine(`risk (server) ${r.server}; risk (Logbook) ${r.logbook}${why}`);
}

export { type RemoteOrigin, REMOTE_ORIGIN_FILE, readRemoteOrigin, writeRemoteOrigin } from './remote-origin';
