// `grep` (OpenHands GrepAction): search file contents with a regular expression, read-only,
// through SearchPort.
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ToolContext, ToolObservation, ToolSpec } from './tool';
import { errorMessage, errorObservation, observation } from './observation';
import { realPath, resolveToolPath } from '../security/resolve-path';
import { movedSinceRated, withRealPath } from './recorded-path';
import type { SearchToolOptions } from './glob-tool';
import { BUILTIN_PARAMETERS } from './builtin-parameters';
import { hiddenSearchReason, withoutHidden } from './search-hidden';

export const GREP_TOOL_NAME = 'grep';
const OBSERVATION_KIND = 'GrepObservation';
const MAX_LINE_CHARS = 300;

const GrepArgsSchema = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).describe('A regular expression, e.g. "function\\s+load" or "TODO".'),
    path: z.string().optional().describe('Directory or file to search (default: the workspace folder).'),
    include: z
      .string()
      .optional()
      .describe('Only search files matching this glob, e.g. "*.ts" or "*.{js,jsx}".'),
  }),
);
export type GrepArgs = z.infer<typeof GrepArgsSchema>;

export function createGrepTool(options: SearchToolOptions = {}): ToolSpec<GrepArgs> {
  const limit = options.limit ?? 100;

  async function execute(args: GrepArgs, ctx: ToolContext): Promise<ToolObservation> {
    // The same resolution the risk rules judged: what is searched is what was rated.
    const resolved = resolveToolPath(args.path ?? ctx.cwd, ctx.cwd);
    const searchPath = resolved.ok ? resolved.path : (args.path ?? null);
    const fields = { pattern: args.pattern, search_path: searchPath, include_pattern: args.include ?? null };
    const fail = (text: string) =>
      errorObservation(OBSERVATION_KIND, text, { ...fields, matches: [], truncated: false });
    if (!resolved.ok) return fail(resolved.error);
    const moved = movedSinceRated(resolved.path, realPath(resolved.path), ctx, 'searched');
    if (moved) return fail(moved);
    const hidden = hiddenSearchReason(resolved.path, options.hidden);
    if (hidden) return fail(hidden);
    try {
      new RegExp(args.pattern);
    } catch (err) {
      return fail(`The pattern is not a valid regular expression: ${errorMessage(err)}`);
    }
    try {
      if (!(await ctx.ports.files.stat(resolved.path))) return fail(`${resolved.path} does not exist.`);
      const all = await ctx.ports.search.grep(args.pattern, {
        cwd: resolved.path,
        limit: limit + 1,
        ...(args.include ? { include: args.include } : {}),
      });
      const shown = withoutHidden(
        all.map((m) => ({ ...m, path: isAbsolute(m.path) ? m.path : resolve(resolved.path, m.path) })),
        (m) => m.path,
        options.hidden,
      );
      const found = shown.kept;
      const truncated = found.length > limit;
      const matches = found.slice(0, limit).map((m) => ({
        path: m.path,
        line: m.line,
        text: m.text.length > MAX_LINE_CHARS ? `${m.text.slice(0, MAX_LINE_CHARS)} [...]` : m.text,
      }));
      const where = `${resolved.path}${args.include ? ` (files matching ${args.include})` : ''}`;
      const text =
        matches.length === 0
          ? [`No matches for ${args.pattern} in ${where}.`, ...shown.note].join('\n')
          : [
              `${matches.length}${truncated ? '+' : ''} match${matches.length === 1 ? '' : 'es'} for ${args.pattern} in ${where}:`,
              ...matches.map((m) => `${m.path}:${m.line}: ${m.text}`),
              ...(truncated
                ? [`[Only the first ${limit} are shown; narrow the pattern, the path or include.]`]
                : []),
              ...shown.note,
            ].join('\n');
      return observation(OBSERVATION_KIND, text, { ...fields, matches, truncated });
    } catch (err) {
      return fail(`grep failed: ${errorMessage(err)}`);
    }
  }

  return {
    name: GREP_TOOL_NAME,
    description:
      'Search file contents with a regular expression and list matching lines as path:line: text. ' +
      'Files ignored by .gitignore, hidden files and node_modules are skipped. Use include to limit ' +
      'the file types.',
    readOnly: true,
    actionKind: 'GrepAction',
    observationKind: OBSERVATION_KIND,
    argsSchema: GrepArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.grep,
    execute,
    // Where the folder or file searched leads, so that what runs is what was rated (recorded-path.ts).
    prepareAction: (args, action) =>
      Promise.resolve(withRealPath(typeof args.path === 'string' ? args.path : '.', options.cwd, action)),
    toActionFields: (args) => ({
      pattern: args.pattern,
      path: args.path ?? null,
      include: args.include ?? null,
    }),
    actionPayloadSchema: z.looseObject({ pattern: z.string() }),
  };
}
