// `glob` (OpenHands GlobAction): find files by name pattern, read-only, through SearchPort.
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ToolContext, ToolObservation, ToolSpec } from './tool';
import { errorMessage, errorObservation, observation } from './observation';
import { realPath, resolveToolPath } from '../security/resolve-path';
import { movedSinceRated, withRealPath } from './recorded-path';
import { BUILTIN_PARAMETERS } from './builtin-parameters';
import type { HiddenPaths } from '../security/hidden-paths';
import { hiddenSearchReason, withoutHidden } from './search-hidden';

export const GLOB_TOOL_NAME = 'glob';
const OBSERVATION_KIND = 'GlobObservation';

const GlobArgsSchema = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).describe('A glob such as "**/*.ts" or "src/**/test_*.py".'),
    path: z.string().optional().describe('Directory to search in (default: the workspace folder).'),
  }),
);
export type GlobArgs = z.infer<typeof GlobArgsSchema>;

export interface SearchToolOptions {
  /** Most results returned per call (default 100). */
  limit?: number;
  /** The workspace folder relative paths resolve against, for recording where a call's path leads. */
  cwd?: string;
  /** What the sandbox hides from commands: not searched, and left out of what is found. */
  hidden?: HiddenPaths;
}

export function createGlobTool(options: SearchToolOptions = {}): ToolSpec<GlobArgs> {
  const limit = options.limit ?? 100;

  async function execute(args: GlobArgs, ctx: ToolContext): Promise<ToolObservation> {
    // The same resolution the risk rules judged: the folder searched is the folder that was rated.
    const resolved = resolveToolPath(args.path ?? ctx.cwd, ctx.cwd);
    if (!resolved.ok) {
      return errorObservation(OBSERVATION_KIND, resolved.error, {
        pattern: args.pattern,
        search_path: args.path ?? null,
        files: [],
        truncated: false,
      });
    }
    const searchPath = resolved.path;
    const fields = { pattern: args.pattern, search_path: searchPath };
    const moved = movedSinceRated(searchPath, realPath(searchPath), ctx, 'searched');
    if (moved) return errorObservation(OBSERVATION_KIND, moved, { ...fields, files: [], truncated: false });
    const hidden = hiddenSearchReason(searchPath, options.hidden);
    if (hidden) return errorObservation(OBSERVATION_KIND, hidden, { ...fields, files: [], truncated: false });
    try {
      const stat = await ctx.ports.files.stat(searchPath);
      if (stat?.type !== 'directory') {
        return errorObservation(OBSERVATION_KIND, `${searchPath} is not a directory.`, {
          ...fields,
          files: [],
          truncated: false,
        });
      }
      // One more than the limit tells whether there were more.
      const all = await ctx.ports.search.glob(args.pattern, { cwd: searchPath, limit: limit + 1 });
      const shown = withoutHidden(
        all.map((f) => (isAbsolute(f) ? f : resolve(searchPath, f))),
        (f) => f,
        options.hidden,
      );
      const found = shown.kept;
      const truncated = found.length > limit;
      const files = found.slice(0, limit);
      const text =
        files.length === 0
          ? [`No files match ${args.pattern} in ${searchPath}.`, ...shown.note].join('\n')
          : [
              `${files.length}${truncated ? '+' : ''} file${files.length === 1 ? '' : 's'} match ${args.pattern} in ${searchPath}:`,
              ...files,
              ...(truncated ? [`[Only the first ${limit} are shown; narrow the pattern or the path.]`] : []),
              ...shown.note,
            ].join('\n');
      return observation(OBSERVATION_KIND, text, { ...fields, files, truncated });
    } catch (err) {
      return errorObservation(OBSERVATION_KIND, `glob failed: ${errorMessage(err)}`, {
        ...fields,
        files: [],
        truncated: false,
      });
    }
  }

  return {
    name: GLOB_TOOL_NAME,
    description:
      'Find files whose path matches a glob pattern ("**/*.ts", "src/**/*.test.js"). Files ignored by ' +
      '.gitignore, hidden files and node_modules are skipped. Returns absolute paths.',
    readOnly: true,
    actionKind: 'GlobAction',
    observationKind: OBSERVATION_KIND,
    argsSchema: GlobArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.glob,
    execute,
    // Where the folder searched leads, so that what runs is what was rated (see recorded-path.ts).
    prepareAction: (args, action) =>
      Promise.resolve(withRealPath(typeof args.path === 'string' ? args.path : '.', options.cwd, action)),
    toActionFields: (args) => ({ pattern: args.pattern, path: args.path ?? null }),
    actionPayloadSchema: z.looseObject({ pattern: z.string(), path: z.string().nullable().optional() }),
  };
}
