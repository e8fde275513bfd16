// How risky a call of an MCP tool is by the hints its server gives. Hints are the server's word,
// not a guarantee, so they only place a tool: the model's own rating still counts (the higher
// wins), and a tool that says nothing is MEDIUM, which asks before it runs by default.
import type { RiskAssessment } from '../security/risk';
import type { McpToolAnnotations } from './port';

export interface AnnotatedRisk extends RiskAssessment {
  /** The server says the tool changes nothing: it runs like the built-in read-only tools. */
  readOnly: boolean;
}

export function annotationRisk(server: string, a: McpToolAnnotations | undefined): AnnotatedRisk {
  const said = a && [a.readOnlyHint, a.destructiveHint, a.openWorldHint].some((h) => h !== undefined);
  if (!said)
    return { risk: 'MEDIUM', readOnly: false, reasons: [`${server} gives no hints about this tool`] };
  if (a.readOnlyHint === true)
    return { risk: 'LOW', readOnly: true, reasons: [`${server} marks this tool read-only`] };
  if (a.destructiveHint === true)
    return { risk: 'HIGH', readOnly: false, reasons: [`${server} marks this tool destructive`] };
  if (a.openWorldHint === true)
    return {
      risk: 'MEDIUM',
      readOnly: false,
      reasons: [`${server} says this tool reaches outside systems`],
    };
  // MCP's defaults: a tool not said to be read-only may be destructive unless the server says not.
  if (a.destructiveHint === false && a.openWorldHint === false)
    return {
      risk: 'LOW',
      readOnly: false,
      reasons: [`${server} says this tool only adds to its own state`],
    };
  return {
    risk: 'MEDIUM',
    readOnly: false,
    reasons: [`${server} does not say this tool is read-only or harmless`],
  };
}
