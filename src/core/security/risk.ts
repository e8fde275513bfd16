// Risk levels and how findings combine: the highest wins, and UNKNOWN means "no opinion".
import type { SecurityRisk } from '../events';

export type { SecurityRisk };
/** A level a rule can assign (UNKNOWN is only ever the absence of an opinion). */
export type RiskLevel = Exclude<SecurityRisk, 'UNKNOWN'>;

export interface Finding {
  risk: RiskLevel;
  reason: string;
  /**
   * Set on a LOW finding whose command still changes something (creates a folder in the workspace,
   * defines an alias): harmless enough to run unasked, but not a read (plan mode refuses it).
   */
  changes?: true;
  /**
   * Set on a finding an OS sandbox makes moot: a write outside the workspace (read-only there), or
   * a read of another process's environment (invisible there). Inside a sandbox it counts as LOW.
   */
  contained?: true;
  /** What a contained finding becomes inside a sandbox, when not "the sandbox stops this". */
  sandboxNote?: string;
  /** Set on a finding that is only a read (outside the workspace): plan mode still lets it run. */
  reads?: true;
  /**
   * Set on a read of private data (a shadow file, a history): no checkpoint takes back what the
   * model has read, so such a command is never "contained" (contained.ts).
   */
  discloses?: true;
}

export interface RiskAssessment {
  risk: SecurityRisk;
  /** Why: the reasons behind the final level (the highest findings), most important first. */
  reasons: string[];
}

const RANK: Record<SecurityRisk, number> = { UNKNOWN: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

export function riskRank(risk: SecurityRisk): number {
  return RANK[risk];
}

/** The higher of two levels; UNKNOWN loses to any real level. */
export function maxRisk(a: SecurityRisk, b: SecurityRisk): SecurityRisk {
  return RANK[b] > RANK[a] ? b : a;
}

export function isRiskLevel(value: unknown): value is RiskLevel {
  return value === 'LOW' || value === 'MEDIUM' || value === 'HIGH';
}

/** Combines findings: the level is the highest one, the reasons are those at that level (deduplicated). */
export function summarize(findings: readonly Finding[], fallback: Finding): RiskAssessment {
  if (findings.length === 0) return { risk: fallback.risk, reasons: [fallback.reason] };
  const risk = findings.reduce<RiskLevel>((top, f) => (RANK[f.risk] > RANK[top] ? f.risk : top), 'LOW');
  const reasons = [...new Set(findings.filter((f) => f.risk === risk).map((f) => f.reason))];
  return { risk, reasons };
}

export const low = (reason: string): Finding => ({ risk: 'LOW', reason });
/** LOW, yet not read-only (see Finding.changes). */
export const lowChange = (reason: string): Finding => ({ risk: 'LOW', reason, changes: true });
export const medium = (reason: string): Finding => ({ risk: 'MEDIUM', reason });
export const high = (reason: string): Finding => ({ risk: 'HIGH', reason });

/** The same finding, marked as one a sandbox contains (see Finding.contained). */
export const contained = (f: Finding, sandboxNote?: string): Finding => ({
  ...f,
  contained: true,
  ...(sandboxNote ? { sandboxNote } : {}),
});

/** Inside a sandbox: each contained finding becomes LOW, saying why. */
export function underSandbox(findings: readonly Finding[]): Finding[] {
  return findings.map((f) =>
    f.contained
      ? {
          risk: 'LOW',
          reason: `${f.reason} (${f.sandboxNote ?? 'the sandbox stops this'})`,
          ...(f.reads ? { reads: true } : { changes: true }),
        }
      : f,
  );
}

/**
 * Printing the environment (`env`, `printenv`, `export`): MEDIUM, as it may hold secrets; the
 * sandbox builds its environment from scratch, without them, so it contains this.
 */
export const printsEnvironment = (who?: string): Finding =>
  contained(medium(`${who ? `${who} ` : ''}prints environment variables, which may include secrets`));
