// Security analyzers rate an action; `analyzeAction` runs them all and keeps the highest rating.
// The model's own rating (security_risk) is one analyzer, the rule-based checks of commands and
// paths another. An analyzer that throws counts as HIGH: failing open would defeat the point.
import { normaliseSecurityRisk } from '../tools/security-args';
import { commandRisk } from './command-risk';
import { gitConfigRunsPrograms } from './git-config-programs';
import { readFileSync, statSync } from 'node:fs';
import { fileWriteRisk, type FileChange } from './file-write-risk';
import { hiddenCheck, type HiddenPaths } from './hidden-paths';
import { described, readPathRisk } from './path-risk';
import { isInsideAny, resolveToolPath } from './resolve-path';
import { maxRisk, type RiskAssessment, riskRank, type SecurityRisk } from './risk';

export interface AnalyzerContext {
  /** Workspace folders. */
  roots: readonly string[];
  /** Folders the agent may read without concern besides the workspace (e.g. its scratch folder). */
  readableRoots: readonly string[];
  /** Where the agent's shell is now (an earlier command may have cd'd away); the first root if absent. */
  shellCwd?: string;
  /** Which repository settings start programs (see CommandRiskOptions); read from disk by default. */
  gitConfigRunsPrograms?: (cwd: string) => string | undefined;
  /** Commands run inside an OS sandbox (see CommandRiskOptions.sandboxed). */
  commandsSandboxed?: boolean;
  /** Folders besides the workspace the file tools may write (`logbook.sandbox.writable`). */
  writableRoots?: readonly string[];
  /** What the sandbox hides from commands: the file tools refuse it (hidden-paths.ts). */
  hiddenRoots?: readonly string[];
  /** The host's look at hard links to hidden files (hidden-paths.ts). */
  hiddenLinks?: HiddenPaths['links'];
  /** The recorded action (a file_editor call records where its path led: `real_path`). */
  action?: Readonly<Record<string, unknown>>;
}

export interface Analyzer {
  name: string;
  /** UNKNOWN means "no opinion" (e.g. a tool the analyzer does not know). */
  analyze(toolName: string, args: Readonly<Record<string, unknown>>, ctx: AnalyzerContext): RiskAssessment;
}

export interface AnalyzerResult extends RiskAssessment {
  analyzer: string;
}

export interface ActionAnalysis extends RiskAssessment {
  /** Each analyzer's own verdict, for display and for policies that weigh them differently. */
  byAnalyzer: AnalyzerResult[];
}

export interface AnalyzeOptions {
  analyzers?: readonly Analyzer[];
  readableRoots?: readonly string[];
  shellCwd?: string;
  /** Defaults to reading the repository's own config files (git-config-programs.ts). */
  gitConfigRunsPrograms?: (cwd: string) => string | undefined;
  /** Commands run inside an OS sandbox: what it contains counts as LOW. */
  commandsSandboxed?: boolean;
  /** Folders besides the workspace the file tools may write. */
  writableRoots?: readonly string[];
  /** What the sandbox hides from commands, which the file tools refuse. */
  hiddenRoots?: readonly string[];
  /** The host's look at hard links to hidden files, which the file tools refuse too. */
  hiddenLinks?: HiddenPaths['links'];
  /** The recorded action payload, when there is one. */
  action?: Readonly<Record<string, unknown>>;
}

/** The model's rating, from the `security_risk` argument it sent. */
export const llmRiskAnalyzer: Analyzer = {
  name: 'llm',
  analyze(_toolName, args) {
    const risk = normaliseSecurityRisk(args.security_risk);
    return risk === 'UNKNOWN'
      ? { risk, reasons: ['the model gave no security_risk'] }
      : { risk, reasons: [`the model rated it ${risk}`] };
  },
};

/** Rule-based checks: terminal commands by their parsed structure, file paths by location. */
export const ruleAnalyzer: Analyzer = {
  name: 'rules',
  analyze(toolName, args, ctx) {
    // Tool names are the OpenHands ones (see src/core/tools).
    const hidden = hiddenRisk(toolName, args, ctx);
    if (hidden) return hidden;
    switch (toolName) {
      case 'terminal':
        return terminalRisk(args, ctx);
      case 'file_editor':
        return fileEditorRisk(args, ctx);
      case 'glob':
      case 'grep': {
        const recorded = recordedReal(ctx);
        return typeof args.path === 'string'
          ? readPathRisk(args.path, ctx.roots, readable(ctx), undefined, recorded)
          : recorded === undefined || isInsideAny(recorded, ctx.roots)
            ? { risk: 'LOW', reasons: ['searches the workspace'] }
            : readPathRisk(ctx.roots[0] ?? '.', ctx.roots, readable(ctx), undefined, recorded);
      }
      case 'think':
      case 'finish':
      case 'task_tracker':
        return { risk: 'LOW', reasons: [`${toolName} changes nothing outside the conversation`] };
      default:
        return { risk: 'UNKNOWN', reasons: [`no rules for the tool ${toolName}`] };
    }
  },
};

export const DEFAULT_ANALYZERS: readonly Analyzer[] = [llmRiskAnalyzer, ruleAnalyzer];

export function analyzeAction(
  toolName: string,
  args: Readonly<Record<string, unknown>>,
  roots: readonly string[],
  options: AnalyzeOptions = {},
): ActionAnalysis {
  const ctx: AnalyzerContext = {
    roots,
    readableRoots: options.readableRoots ?? [],
    ...(options.shellCwd ? { shellCwd: options.shellCwd } : {}),
    gitConfigRunsPrograms: options.gitConfigRunsPrograms ?? gitConfigRunsPrograms,
    ...(options.commandsSandboxed ? { commandsSandboxed: true } : {}),
    ...(options.writableRoots ? { writableRoots: options.writableRoots } : {}),
    ...(options.hiddenRoots ? { hiddenRoots: options.hiddenRoots } : {}),
    ...(options.hiddenLinks ? { hiddenLinks: options.hiddenLinks } : {}),
    ...(options.action ? { action: options.action } : {}),
  };
  const byAnalyzer = (options.analyzers ?? DEFAULT_ANALYZERS).map((analyzer): AnalyzerResult => {
    try {
      return { analyzer: analyzer.name, ...analyzer.analyze(toolName, args, ctx) };
    } catch (err) {
      return {
        analyzer: analyzer.name,
        risk: 'HIGH',
        reasons: [`the ${analyzer.name} analyzer failed: ${(err as Error).message}`],
      };
    }
  });
  const risk = byAnalyzer.reduce<SecurityRisk>((top, r) => maxRisk(top, r.risk), 'UNKNOWN');
  const reasons =
    risk === 'UNKNOWN'
      ? byAnalyzer.flatMap((r) => r.reasons)
      : byAnalyzer.filter((r) => riskRank(r.risk) === riskRank(risk)).flatMap((r) => r.reasons);
  return { risk, reasons, byAnalyzer };
}

function terminalRisk(args: Readonly<Record<string, unknown>>, ctx: AnalyzerContext): RiskAssessment {
  const command = typeof args.command === 'string' ? args.command : '';
  if (args.is_input === true) {
    if (command === '') return { risk: 'LOW', reasons: ['only reads more output'] };
    if (/^C-[a-z]$/i.test(command.trim()))
      return { risk: 'LOW', reasons: [`sends ${command.trim()} to the running command`] };
    return { risk: 'MEDIUM', reasons: ['types text into the running command, which cannot be checked'] };
  }
  if (command.trim() === '') {
    return { risk: 'LOW', reasons: [args.reset === true ? 'restarts the shell' : 'there is nothing to run'] };
  }
  return commandRisk(command, {
    roots: ctx.roots,
    readable: ctx.readableRoots,
    ...(ctx.shellCwd ? { cwd: ctx.shellCwd } : {}),
    ...(ctx.gitConfigRunsPrograms ? { gitConfigRunsPrograms: ctx.gitConfigRunsPrograms } : {}),
    ...(ctx.commandsSandboxed ? { sandboxed: true } : {}),
  });
}

/** Where the call's path led when it was recorded (file_editor, glob and grep record it). */
function recordedReal(ctx: AnalyzerContext): string | undefined {
  const recorded = ctx.action?.real_path;
  return typeof recorded === 'string' ? recorded : undefined;
}

/**
 * A file tool's call whose path leads into a place the sandbox hides: the tool refuses it, in every
 * confirmation mode, so it is not asked about (as a write outside the writable folders is not).
 */
function hiddenRisk(
  toolName: string,
  args: Readonly<Record<string, unknown>>,
  ctx: AnalyzerContext,
): RiskAssessment | undefined {
  const hiddenRoots = ctx.hiddenRoots ?? [];
  if (hiddenRoots.length === 0 || !['file_editor', 'glob', 'grep'].includes(toolName)) return undefined;
  const raw = typeof args.path === 'string' ? args.path : toolName === 'file_editor' ? undefined : '.';
  if (raw === undefined) return undefined;
  const resolved = resolveToolPath(raw, ctx.roots[0] ?? '.');
  if (!resolved.ok) return undefined;
  const real = recordedReal(ctx) ?? resolved.real;
  const reading = toolName !== 'file_editor' || args.command === 'view';
  const check = hiddenCheck(
    {
      locations: () => hiddenRoots,
      readable: () => ctx.readableRoots,
      ...(ctx.hiddenLinks ? { links: ctx.hiddenLinks } : {}),
    },
    reading,
  );
  const why = check(described(resolved.path, real), real);
  return why ? { risk: 'LOW', reasons: [`refused without touching anything: ${why}`] } : undefined;
}

/** What the file tools may read without asking: the workspace's neighbours they may also write. */
function readable(ctx: AnalyzerContext): readonly string[] {
  return [...ctx.readableRoots, ...(ctx.writableRoots ?? [])];
}

/**
 * A view is a read; any other command a write, held to the folders the agent may write. Both are
 * judged where the path led when the call was recorded (the tool refuses to act if it leads
 * elsewhere by the time it runs), or where it leads now for a call recorded without it.
 */
function fileEditorRisk(args: Readonly<Record<string, unknown>>, ctx: AnalyzerContext): RiskAssessment {
  if (typeof args.path !== 'string') return { risk: 'UNKNOWN', reasons: ['no path to check'] };
  const recorded = recordedReal(ctx);
  if (args.command === 'view') return readPathRisk(args.path, ctx.roots, readable(ctx), undefined, recorded);
  return fileWriteRisk(args.path, ctx.roots, {
    writable: ctx.writableRoots ?? [],
    ...(recorded ? { recordedReal: recorded } : {}),
    change: { ...args, command: String(args.command) } as FileChange,
    readText: readSmallText,
  });
}

/** A build file's text, for judging what an edit changes; undefined when missing or too large. */
function readSmallText(path: string): string | undefined {
  try {
    return statSync(path).size > 1_000_000 ? undefined : readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
