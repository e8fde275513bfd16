import type { CommandSite, RuleContext } from './command-risk';
import type { Finding } from './risk';
import type { SimpleCommand } from './shell-parse';

export interface RuleEnv {
  ctx: RuleContext;
  site: CommandSite;
  /** The simple command being judged (for its redirections and heredocs). */
  command: SimpleCommand;
}

/** Rates one program invocation: `args` excludes the program name. */
export type ProgramRule = (args: readonly string[], env: RuleEnv, name: string) => Finding[];
