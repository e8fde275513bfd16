// The types program rules are written against. They live apart from command-risk.ts, which runs
// the rules, so a rule can name them without importing the code that imports it.
import type { Finding } from './risk';
import type { SimpleCommand } from './shell-parse';
import type { WordLocation } from './shell-paths';

/** Where a command sits: what feeds its stdin decides whether `sh` runs checked text or not. */
export interface CommandSite {
  /** Commands before it in its pipeline (their output is its input). */
  upstream: readonly SimpleCommand[];
}

/** What program rules may ask of the analysis. */
export interface RuleContext {
  readonly roots: readonly string[];
  /** Folders besides the roots that reads may reach without asking. */
  readonly readable: readonly string[];
  /** Findings for shell text run by the command itself (`bash -c`, `eval`, a heredoc fed to sh). */
  analyzeText(text: string): Finding[];
  /** Findings for a command line run by the command (`sudo ...`, `xargs ...`, `find -exec ...`). */
  analyzeArgv(argv: readonly string[], site: CommandSite, command: SimpleCommand): Finding[];
  /** Findings for writing to `target`: where it lands, or MEDIUM for an ordinary write. */
  writeTarget(target: string, verb?: string): Finding[];
  /** Findings for reading `target` (a secret, private data outside the workspace); [] otherwise. */
  readTarget(target: string): Finding[];
  /** Only the findings about where a write lands (outside the workspace, protected); [] inside. */
  writeBoundary(target: string, verb?: string): Finding[];
  /** Where a path word leads (see shell-paths.ts), or undefined when decided at run time. */
  locate(word: string): WordLocation | undefined;
  /** The shell's working directory here (after the script's `cd`s); null: decided at run time. */
  readonly cwd: string | null | undefined;
  /**
   * Why git run in `dir` (absolute; the shell's directory when undefined, null when decided at run
   * time) may start programs its repository configures, or undefined.
   */
  gitConfigRunsPrograms(dir?: string | null): string | undefined;
  /** The same analysis from another working directory. */
  at(cwd: string | null): RuleContext;
}

export interface RuleEnv {
  ctx: RuleContext;
  site: CommandSite;
  /** The simple command being judged (for its redirections and heredocs). */
  command: SimpleCommand;
}

/** Rates one program invocation: `args` excludes the program name. */
export type ProgramRule = (args: readonly string[], env: RuleEnv, name: string) => Finding[];
