// How risky a call of an MCP tool is by the hints its server gives. Hints are the server's word,
// not a guarantee, so they only place a tool: the model's own rating still counts (the higher
// wins), and a tool that says nothing is MEDIUM, which asks before it runs by default. Hints that
// contradict each other (read-only and destructive) take the highest rating any of them implies:
// a server cannot talk a tool down by adding `readOnlyHint`.
import { maxRisk, type RiskAssessment, type RiskLevel } from '../security/risk';
import type { McpToolAnnotations } from './port';

export interface AnnotatedRisk extends RiskAssessment {
  /** The server says the tool changes nothing and reaches nothing outside: it runs like the built-in read-only tools. */
  readOnly: boolean;
}

export function annotationRisk(server: string, a: McpToolAnnotations | undefined): AnnotatedRisk {
  const said = a && [a.readOnlyHint, a.destructiveHint, a.openWorldHint].some((h) => h !== undefined);
  if (!said)
    return { risk: 'MEDIUM', readOnly: false, reasons: [`${server} gives no hints about this tool`] };
  const found: { risk: RiskLevel; reason: string }[] = [];
  if (a.destructiveHint === true)
    found.push({ risk: 'HIGH', reason: `${server} marks this tool destructive` });
  if (a.openWorldHint === true)
    found.push({ risk: 'MEDIUM', reason: `${server} says this tool reaches outside systems` });
  if (a.readOnlyHint === true) found.push({ risk: 'LOW', reason: `${server} marks this tool read-only` });
  // MCP's defaults: a tool not said to be read-only may be destructive unless the server says not.
  else if (a.destructiveHint === false && a.openWorldHint === false)
    found.push({ risk: 'LOW', reason: `${server} says this tool only adds to its own state` });
  else if (found.length === 0)
    found.push({ risk: 'MEDIUM', reason: `${server} does not say this tool is read-only or harmless` });

  const risk = found.map((f) => f.risk).reduce<RiskLevel>((x, y) => maxRisk(x, y) as RiskLevel, 'LOW');
  const reasons = found.filter((f) => f.risk === risk).map((f) => f.reason);
  const readOnly = risk === 'LOW' && a.readOnlyHint === true;
  if (a.readOnlyHint === true && !readOnly)
    reasons.push(`its read-only hint is contradicted by its other hints: the higher rating counts`);
  return { risk, readOnly, reasons };
}
