// Allow rules: command prefixes the user approved once and for all (e.g. `npm test`). A rule
// matches a simple command whose words start with the rule's words, so `npm test` allows
// `npm test -- --grep x` but not `npm testing`. A compound command is allowed only if every one
// of its sub-commands (pipelines, && lists, substitutions) is matched by a rule or is LOW risk on
// its own: `npm test && rm -rf /` is not allowed.
import { parse as shellQuoteParse } from 'shell-quote';
import { forEachCommand, simpleCommandRisk } from './command-risk';
import type { CommandSite } from './rule-types';
import { parseShell, type SimpleCommand } from './shell-parse';

export interface AllowRuleMatch {
  allowed: boolean;
  /** The rules that matched a sub-command. */
  matchedRules: string[];
  /** Sub-commands that no rule allows and that are not LOW risk on their own. */
  blocked: string[];
}

export interface AllowRuleOptions {
  roots?: readonly string[];
}

/** The words of a rule, or undefined when it is not a plain command prefix (operators, substitutions...). */
export function parseAllowRule(rule: string): string[] | undefined {
  if (/[`$()<>|;&\n]/.test(rule)) return undefined;
  const entries = shellQuoteParse(rule);
  if (entries.length === 0 || entries.some((e) => typeof e !== 'string')) return undefined;
  return entries as string[];
}

export function matchAllowRules(
  command: string,
  rules: readonly string[],
  options: AllowRuleOptions = {},
): AllowRuleMatch {
  const parsedRules = rules.flatMap((rule) => {
    const words = parseAllowRule(rule);
    return words ? [{ rule, words }] : [];
  });
  const matchedRules = new Set<string>();
  const blocked: string[] = [];
  let script;
  try {
    script = parseShell(command);
  } catch {
    return { allowed: false, matchedRules: [], blocked: [command] };
  }
  if (script.incomplete) return { allowed: false, matchedRules: [], blocked: [command] };
  const riskOptions = { roots: options.roots ?? [] };

  forEachCommand(script, (sub, site) => {
    const rule = parsedRules.find((r) => ruleCovers(r.words, sub, site, riskOptions));
    if (rule) matchedRules.add(rule.rule);
    else if (simpleCommandRisk(sub, site, riskOptions).risk !== 'LOW') blocked.push(describe(sub));
  });
  return { allowed: blocked.length === 0 && matchedRules.size > 0, matchedRules: [...matchedRules], blocked };
}

/**
 * The rule's words start the command's words. A rule may spell out variable assignments
 * (`CI=1 npm test`); assignments it leaves out must be harmless (not PATH, LD_PRELOAD...), and
 * redirections must not write anywhere HIGH risk (`npm test > ~/.bashrc`).
 */
function ruleCovers(
  ruleWords: readonly string[],
  sub: SimpleCommand,
  site: CommandSite,
  options: AllowRuleOptions,
): boolean {
  if (sub.definesFunction !== undefined) return false;
  const spelledOut = startsWith([...sub.assignments, ...sub.argv], ruleWords);
  if (!spelledOut && !startsWith(sub.argv, ruleWords)) return false;
  const only = (part: Partial<SimpleCommand>): SimpleCommand => ({
    assignments: [],
    argv: [],
    redirects: [],
    substitutions: [],
    ...part,
  });
  if (
    sub.redirects.length > 0 &&
    simpleCommandRisk(only({ redirects: sub.redirects }), site, options).risk === 'HIGH'
  ) {
    return false;
  }
  if (!spelledOut && sub.assignments.length > 0) {
    return simpleCommandRisk(only({ assignments: sub.assignments }), site, options).risk === 'LOW';
  }
  return true;
}

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length > 0 && prefix.length <= words.length && prefix.every((w, i) => words[i] === w);
}

function describe(command: SimpleCommand): string {
  if (command.definesFunction !== undefined) return `function ${command.definesFunction}`;
  return (
    [...command.assignments, ...command.argv].join(' ') ||
    command.redirects.map((r) => `${r.op} ${r.target}`).join(' ')
  );
}
