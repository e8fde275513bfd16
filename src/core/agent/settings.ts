// Everything that tunes a conversation's run, with the defaults a user gets out of the box.
import { DEFAULT_STUCK_THRESHOLDS, type StuckThresholds } from './stuck-detector';

export type ConfirmationMode = 'never' | 'risky' | 'always';

export interface AgentSettings {
  confirmationMode: ConfirmationMode;
  /** Command prefixes the user allowed once and for all ("npm test"). */
  allowRules: string[];
  /** Agent steps per run before it stops and asks to continue. */
  maxIterations: number;
  /**
   * Tool calls of one model reply that may run; the calls past it are answered with an error and
   * never executed, so a reply with a thousand calls cannot flood a step or the confirmations.
   */
  maxToolCallsPerReply: number;
  /** Stop with an error once the conversation has used this many tokens (prompt + completion). */
  maxTokens: number | null;
  /** Stop with an error once the conversation has cost this much (USD). */
  maxCost: number | null;
  stuck: StuckThresholds;
  /** False in an untrusted workspace: the agent can chat but runs no tool. */
  toolsEnabled: boolean;
}

export const DEFAULT_AGENT_SETTINGS: AgentSettings = {
  confirmationMode: 'risky',
  allowRules: [],
  maxIterations: 100,
  maxToolCallsPerReply: 32,
  maxTokens: null,
  maxCost: null,
  stuck: DEFAULT_STUCK_THRESHOLDS,
  toolsEnabled: true,
};
