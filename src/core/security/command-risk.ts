// Risk of a terminal command, judged from its parsed structure: every simple command, including
// those in pipelines, substitutions, `bash -c` scripts and behind sudo/env/xargs, is rated by the
// program rules; the highest finding wins. Unknown programs are MEDIUM. Paths are judged where
// they lead (shell-paths.ts), never by their raw text alone.
import {
  contained,
  type Finding,
  high,
  low,
  medium,
  type RiskAssessment,
  summarize,
  underSandbox,
} from './risk';
import {
  type Redirect,
  type ShellScript,
  type SimpleCommand,
  hasSubstitution,
  parseShell,
} from './shell-parse';
import { isDiskDevice, isHarmlessSink, protectedWriteReason, secretReason } from './sensitive-paths';
import { programFindings } from './program-rules';
import { secretReasonOfWord } from './secret-globs';
import {
  assignedName,
  defaultAssignments,
  isDangerousVariable,
  setsVariableReason,
} from './dangerous-variables';
import { isInsideAny, workspaceRelative } from './resolve-path';
import { buildFileReason, runsLaterReason } from './runs-later';
import { outsideRead, outsideReadFindings } from './outside-reads';
import { locateWord, readsOtherProcessEnvironment, sensitiveReadOfWord } from './shell-paths';
import type { CommandSite, RuleContext } from './rule-types';

export interface CommandRiskOptions {
  /**
   * Workspace folders: writes outside them are HIGH (MEDIUM in a temporary folder). Without them,
   * absolute writes are MEDIUM.
   */
  roots?: readonly string[];
  /** The shell's working directory before the command (the first root when absent). */
  cwd?: string;
  /**
   * The config key (e.g. `core.fsmonitor`) with which the git repository around a folder starts
   * programs of its own, or undefined. Supplied by the host (see git-config-programs.ts); without
   * it, repository settings are not considered.
   */
  gitConfigRunsPrograms?: (cwd: string) => string | undefined;
  /** Folders besides the workspace the agent may read freely (its scratch folder): not outside. */
  readable?: readonly string[];
  /**
   * The command runs inside an OS sandbox: what it contains (writes outside the workspace, other
   * processes' environments) is LOW. Never for plan mode's read-only verdict.
   */
  sandboxed?: boolean;
}

const MAX_DEPTH = 8;
// `<>` opens for reading and writing (and creates the file): a write, not an input.
const INPUT_OPS = new Set(['<', '<<', '<<<', '<&']);

export function commandRisk(command: string, options: CommandRiskOptions = {}): RiskAssessment {
  try {
    const script = parseShell(command);
    const findings = scriptFindings(script, createContext(options, 0, options.cwd));
    return summarize(options.sandboxed ? underSandbox(findings) : findings, low('there is nothing to run'));
  } catch (err) {
    return { risk: 'HIGH', reasons: [`the command could not be analysed (${(err as Error).message})`] };
  }
}

/**
 * Why the command discloses private data that stays rated MEDIUM or more (inside a sandbox when
 * `sandboxed`), or undefined: what it reads, no checkpoint can take back.
 */
export function commandDisclosure(command: string, options: CommandRiskOptions = {}): string | undefined {
  try {
    const findings = scriptFindings(parseShell(command), createContext(options, 0, options.cwd));
    const judged = options.sandboxed ? underSandbox(findings) : findings;
    return judged.find((f) => f.discloses && f.risk !== 'LOW')?.reason;
  } catch (err) {
    return `the command could not be analysed (${(err as Error).message})`;
  }
}

/** Whether a command only reads, and if not, why (the first thing it would change or risk). */
export interface ReadOnlyVerdict {
  readOnly: boolean;
  reason: string;
}

/**
 * Strict: read-only only when every command in it (pipelines, substitutions, `bash -c` text and
 * wrapped commands included) is rated LOW and none of those LOW ratings still changes something
 * (mkdir, alias...). A redirection into a file is a write; one to /dev/null or another descriptor is not.
 */
export function commandReadOnly(command: string, options: CommandRiskOptions = {}): ReadOnlyVerdict {
  let findings: Finding[];
  try {
    const script = parseShell(command);
    if (script.incomplete)
      return { readOnly: false, reason: 'an unclosed quote or substitution makes it unclear what runs' };
    findings = scriptFindings(script, createContext(options, 0, options.cwd));
  } catch (err) {
    return { readOnly: false, reason: `the command could not be analysed (${(err as Error).message})` };
  }
  // A read outside the workspace is still a read: the confirmation policy decides whether it asks.
  const writes =
    findings.find((f) => f.risk !== 'LOW' && f.reads !== true) ?? findings.find((f) => f.changes === true);
  return writes
    ? { readOnly: false, reason: writes.reason }
    : { readOnly: true, reason: findings[0]?.reason ?? 'there is nothing to run' };
}

/** Findings of one simple command alone (not its substitutions), for allow-rule decisions. */
export function simpleCommandRisk(
  command: SimpleCommand,
  site: CommandSite,
  options: CommandRiskOptions = {},
): RiskAssessment {
  try {
    const findings = ownFindings(command, site, createContext(options, 0, options.cwd));
    return summarize(findings, low('there is nothing to run'));
  } catch (err) {
    return { risk: 'HIGH', reasons: [`the command could not be analysed (${(err as Error).message})`] };
  }
}

/** Calls `visit` for every simple command of a script, substitutions included, with its site. */
export function forEachCommand(
  script: ShellScript,
  visit: (command: SimpleCommand, site: CommandSite) => void,
): void {
  for (const pipeline of script.pipelines) {
    pipeline.forEach((command, index) => {
      visit(command, { upstream: pipeline.slice(0, index) });
      for (const nested of command.substitutions) forEachCommand(nested, visit);
    });
  }
}

function scriptFindings(script: ShellScript, ctx: RuleContext): Finding[] {
  const findings: Finding[] = [];
  if (script.incomplete)
    findings.push(medium('an unclosed quote or substitution makes it unclear what runs'));
  commandsFrom(script, ctx, findings);
  return findings;
}

/**
 * Rates the commands in order, following `cd`: `cd /etc && cat shadow` reads /etc/shadow. A `cd`
 * alone in its pipeline moves the shell; one in a pipeline runs in a subshell and does not.
 */
function commandsFrom(script: ShellScript, start: RuleContext, findings: Finding[]): void {
  let ctx = start;
  for (const pipeline of script.pipelines) {
    pipeline.forEach((command, index) => {
      findings.push(...ownFindings(command, { upstream: pipeline.slice(0, index) }, ctx));
      for (const nested of command.substitutions) commandsFrom(nested, ctx, findings);
    });
    const only = pipeline.length === 1 ? pipeline[0] : undefined;
    if (only && CHANGES_DIRECTORY.has(only.argv[0] ?? '')) ctx = ctx.at(directoryAfter(only.argv, ctx));
  }
}

const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);

/** Where `cd`/`pushd`/`popd` leave the shell, or null when only the run can tell. */
function directoryAfter(argv: readonly string[], ctx: RuleContext): string | null {
  const [name, ...args] = argv;
  if (name === 'popd') return null;
  const operands = args.filter((a) => !/^-[LPe@]+$/.test(a));
  const target = operands.length === 0 ? '~' : operands[0]!;
  if (target === '-' || operands.length > 1) return null;
  return ctx.locate(target)?.real ?? null;
}

function ownFindings(command: SimpleCommand, site: CommandSite, ctx: RuleContext): Finding[] {
  const findings: Finding[] = [];
  if (command.definesFunction !== undefined) {
    findings.push(
      medium(`defines the shell function ${command.definesFunction}, whose calls cannot be checked`),
    );
  }
  // `X=1 cmd`, `X=1`, and `${X:=1}` inside any word or redirection target.
  const set = [
    ...command.assignments.map(assignedName),
    ...[...command.assignments, ...command.argv, ...command.redirects.map((r) => r.target)].flatMap(
      defaultAssignments,
    ),
  ];
  for (const name of new Set(set)) {
    if (name !== undefined && isDangerousVariable(name)) findings.push(medium(setsVariableReason(name)));
  }
  for (const redirect of command.redirects) findings.push(...redirectFindings(redirect, command, ctx));
  if (command.argv.length > 0) findings.push(...ctx.analyzeArgv(command.argv, site, command));
  else if (command.assignments.length > 0 && findings.length === 0)
    findings.push(low('only sets shell variables'));
  return findings;
}

function redirectFindings(redirect: Redirect, command: SimpleCommand, ctx: RuleContext): Finding[] {
  if (INPUT_OPS.has(redirect.op))
    return redirect.op === '<'
      ? [...readFindings(redirect.target, ctx), ...outsideRead(redirect.target, 'reads', ctx)]
      : [];
  // `>&2` and `2>&1` duplicate descriptors; `>& file` writes a file.
  if (redirect.op === '>&' && /^\d+-?$|^-$/.test(redirect.target)) return [];
  if (redirect.op === '<>')
    return [...readFindings(redirect.target, ctx), ...ctx.writeTarget(redirect.target)];
  if (command.argv.length === 0 && redirect.op === '>' && !isHarmlessSink(redirect.target)) {
    return ctx.writeTarget(redirect.target, 'empties');
  }
  return ctx.writeTarget(redirect.target);
}

function createContext(options: CommandRiskOptions, depth: number, cwd?: string | null): RuleContext {
  const roots = options.roots ?? [];
  const ctx: RuleContext = {
    roots,
    readable: options.readable ?? [],
    cwd,
    at: (next) => createContext(options, depth, next),
    gitConfigRunsPrograms(dir) {
      const check = options.gitConfigRunsPrograms;
      if (!check) return undefined;
      const where = dir === undefined ? (cwd === undefined ? roots[0] : cwd) : dir;
      if (where === null) return 'the repository is in a folder decided at run time';
      return where === undefined ? undefined : check(where);
    },
    analyzeText(text) {
      if (depth + 1 > MAX_DEPTH) return [high('shell code is nested too deeply to analyse')];
      // `bash -c` and `eval` run where the shell is.
      return scriptFindings(parseShell(text), createContext(options, depth + 1, cwd));
    },
    analyzeArgv(argv, site, command) {
      // No depth check needed: each wrapper (sudo, env, xargs...) hands on a shorter argv.
      const args = argv.slice(1);
      const found = programFindings(argv[0] ?? '', args, { ctx, site, command });
      // Secrets and private files named anywhere in the arguments: reading them sends them to
      // the model, writing or committing them spreads them.
      for (const arg of args) found.push(...readFindings(arg, ctx));
      found.push(...outsideReadFindings(argv[0] ?? '', args, ctx));
      return found;
    },
    writeTarget(target, verb = 'writes to') {
      if (isHarmlessSink(target)) return [];
      const boundary = ctx.writeBoundary(target, verb);
      if (boundary.length > 0) return boundary;
      if (hasSubstitution(target) || target.includes('$')) {
        return [medium(`${verb} ${target}, a path decided at run time`)];
      }
      return [medium(`${verb} ${target}`)];
    },
    writeBoundary(target, verb = 'writes to') {
      if (isHarmlessSink(target)) return [];
      const place = ctx.locate(target);
      const forms = place ? [target, place.path, place.real] : [target];
      const outside = place !== undefined && roots.length > 0 && !isInsideAny(place.real, roots);
      const device = forms.find(isDiskDevice);
      // The sandbox's /dev holds no disks, and everything outside the workspace is read-only there.
      if (device) return [contained(high(`${verb} the disk device ${device} directly`))];
      // Inside the workspace, a file the user's own tools run or load later (read-only in the
      // sandbox: asked about all the same, since without one nothing holds it).
      const rels = place ? [place.real, place.path].map((p) => workspaceRelative(p, roots)) : [];
      const later = rels.map((rel) => rel && runsLaterReason(rel)).find((r) => r !== undefined);
      if (later) return [high(`${verb} a file that runs later: ${later}`)];
      const protectedReason = forms.map(protectedWriteReason).find((r) => r !== undefined);
      if (protectedReason) {
        const finding = high(`${verb} a protected location: ${protectedReason}`);
        return [outside ? contained(finding) : finding];
      }
      if (target.startsWith('~')) return [high(`${verb} ${target}, outside the workspace`)];
      const build = rels.map((rel) => rel && buildFileReason(rel)).find((r) => r !== undefined);
      if (build && !outside) return [medium(`${verb} a build file: ${build}`)];
      if (!place || !outside) return [];
      const name = place.real === place.path ? place.real : `${target} (which leads to ${place.real})`;
      // A temporary folder outside the workspace is not the user's data, but it is outside what
      // the user handed over: ask (MEDIUM), without the alarm of HIGH.
      if (TEMP_DIRS.test(place.real))
        return [contained(medium(`${verb} ${name}, a temporary file outside the workspace`))];
      return [contained(high(`${verb} ${name}, outside the workspace`))];
    },
    locate: (word) => locateWord(word, roots, undefined, cwd),
    readTarget: (word) => readFindings(word, ctx),
  };
  return ctx;
}

const TEMP_DIRS = /^\/(tmp|var\/tmp|private\/tmp|private\/var\/tmp)(\/|$)/;

/** A secret file is HIGH; private data outside the workspace (shadow, process environments, histories) MEDIUM. */
function readFindings(word: string, ctx: RuleContext): Finding[] {
  const place = ctx.locate(word);
  const secret = secretReasonOfWord(word) ?? (place ? secretReason(place.real) : undefined);
  if (secret) return [high(`uses a secret file: ${secret}`)];
  if (readsOtherProcessEnvironment(word, place))
    return [contained(high(`reads ${word}, the environment of another process, where secrets live`))];
  const inside = (real: string) => ctx.roots.length > 0 && isInsideAny(real, ctx.roots);
  const sensitive = sensitiveReadOfWord(word, ctx.roots, inside, undefined, ctx.cwd);
  return sensitive ? [{ ...medium(`reads ${sensitive}`), discloses: true }] : [];
}
