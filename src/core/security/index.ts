/** Public API of the security checks. Import from `src/core/security`, not from the files inside. */
export {
  type Finding,
  maxRisk,
  type RiskAssessment,
  type RiskLevel,
  riskRank,
  type SecurityRisk,
} from './risk';
export { commandReadOnly, commandRisk, type CommandRiskOptions, type ReadOnlyVerdict } from './command-risk';
export { findGitDir, gitConfigRunsPrograms, programKeyInConfig } from './git-config-programs';
export { readPathRisk } from './path-risk';
export { fileWriteRisk, outsideWriteReason } from './file-write-risk';
export {
  diskLookup,
  isInsideAny,
  isInsideRoot,
  type PathLookup,
  type ResolvedPath,
  realPath,
  realRoots,
  resolveToolPath,
} from './resolve-path';
export { isDiskDevice, protectedWriteReason, secretReason, sensitiveReadReason } from './sensitive-paths';
export { allCommands, parseShell, type Redirect, type ShellScript, type SimpleCommand } from './shell-parse';
export {
  type ActionAnalysis,
  analyzeAction,
  type AnalyzeOptions,
  type Analyzer,
  type AnalyzerContext,
  type AnalyzerResult,
  DEFAULT_ANALYZERS,
  llmRiskAnalyzer,
  ruleAnalyzer,
} from './analyzers';
export { type AllowRuleMatch, type AllowRuleOptions, matchAllowRules, parseAllowRule } from './allow-rules';
export {
  type ActionForReview,
  type ConfirmationDecision,
  type ConfirmationMode,
  type ConfirmationPolicy,
  DEFAULT_THRESHOLD,
  needsConfirmation,
} from './confirmation-policy';
