// Arguments every tool with side effects takes: the model's own risk rating and a short summary.
// They end up on the ActionEvent (security_risk, summary), not in the action payload.
import { z } from 'zod';
import type { SecurityRisk } from '../events';

export const SECURITY_ARG_NAMES = ['security_risk', 'summary'] as const;

let shape: ReturnType<typeof buildShape> | undefined;
/** The fields, built on first use (not when the extension loads); the same objects every call. */
export const securityArgsShape = () => (shape ??= buildShape());

function buildShape() {
  return {
    security_risk: z
      .enum(['LOW', 'MEDIUM', 'HIGH'])
      .describe(
        'Your assessment of the risk of this action: LOW (read-only or easily undone), MEDIUM (changes ' +
          'files or state in the workspace), HIGH (destructive, irreversible, touches secrets or things ' +
          'outside the workspace, or uses the network to send data).',
      )
      .optional(),
    summary: z
      .string()
      .describe('A few words saying what this action does, shown to the user (e.g. "Run the unit tests").')
      .optional(),
  };
}

/** Normalises whatever the model sent as `security_risk`; anything unusable is UNKNOWN. */
export function normaliseSecurityRisk(value: unknown): SecurityRisk {
  if (typeof value !== 'string') return 'UNKNOWN';
  const upper = value.trim().toUpperCase();
  return upper === 'LOW' || upper === 'MEDIUM' || upper === 'HIGH' ? upper : 'UNKNOWN';
}

export function normaliseSummary(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}
