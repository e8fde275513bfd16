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
