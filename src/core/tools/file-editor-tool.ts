// `file_editor` (OpenHands FileEditorAction / FileEditorObservation): view, create, str_replace,
// insert, undo_edit. Edits go through FilePort; observations carry the old and new content so the
// user can review an edit and the host can restore it (a create's new content is the action's
// file_text, which the observation refers to instead of repeating).
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { type FilePort, PathMovedError } from './ports';
import type { ToolContext, ToolObservation, ToolSpec } from './tool';
import { securityArgsShape } from './security-args';
import { NEW_CONTENT_FROM_ACTION } from '../events/observation-refs';
import { errorMessage, errorObservation, observation } from './observation';
import { realPath, resolveToolPath } from '../security/resolve-path';
import { outsideWriteReason } from '../security/file-write-risk';
import { hiddenCheck, hiddenReason, type HiddenPaths } from '../security/hidden-paths';
import { movedSinceRated, withRealPath } from './recorded-path';
import { insertAfterLine, replaceUnique, snippetAround, splitLines } from './file-edits';
import { DEFAULT_VIEW_LIMITS, viewDirectory, viewFileText, type ViewLimits } from './file-editor-view';
import { BUILTIN_PARAMETERS } from './builtin-parameters';

export const FILE_EDITOR_TOOL_NAME = 'file_editor';
const ACTION_KIND = 'FileEditorAction';
const OBSERVATION_KIND = 'FileEditorObservation';
const COMMANDS = ['view', 'create', 'str_replace', 'insert', 'undo_edit'] as const;

export interface FileEditorToolOptions {
  viewLimits?: Partial<ViewLimits>;
  /** Edits remembered per file for undo_edit (default 20). */
  undoDepth?: number;
  /** The workspace folder relative paths resolve against, for recording where a call's path leads. */
  cwd?: string;
  /**
   * Folders besides the workspace folders (FilePort.roots) the tool may write: the sandbox's
   * writable folders. Nowhere else is written, whatever the confirmation mode.
   */
  writable?: () => readonly string[];
  /** What the sandbox hides from commands: neither read nor written here either. */
  hidden?: HiddenPaths;
}

const FileEditorArgsSchema = lazySchema(() =>
  z
    .object({
      command: z.enum(COMMANDS).describe('What to do: view, create, str_replace, insert or undo_edit.'),
      path: z
        .string()
        .min(1)
        .describe('The file or directory: absolute, or relative to the workspace folder.'),
      file_text: z.string().optional().describe('create: the whole content of the new file.'),
      old_str: z
        .string()
        .optional()
        .describe(
          'str_replace: the exact text to replace, whitespace included. It must occur exactly once in the file.',
        ),
      new_str: z
        .string()
        .optional()
        .describe(
          'str_replace: the replacement (empty or omitted deletes old_str). insert: the text to insert.',
        ),
      insert_line: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('insert: new_str goes after this line (0 inserts at the top of the file).'),
      view_range: z
        // A plain 2-item array rather than a tuple: `prefixItems` trips up some OpenAI-compatible servers.
        .array(z.number().int())
        .length(2)
        .optional()
        .describe(
          'view of a file: [first, last] line numbers, 1-based and inclusive; last -1 reads to the end.',
        ),
      ...securityArgsShape(),
    })
    .superRefine((args, ctx) => {
      const need = (field: keyof typeof args, why: string) => {
        if (args[field] === undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: `required ${why}` });
      };
      if (args.command === 'create') need('file_text', 'by create');
      if (args.command === 'str_replace') need('old_str', 'by str_replace');
      if (args.command === 'insert') {
        need('insert_line', 'by insert');
        need('new_str', 'by insert');
      }
      if (args.command === 'str_replace' && args.old_str === '') {
        ctx.addIssue({ code: 'custom', path: ['old_str'], message: 'must not be empty' });
      }
    }),
);
export type FileEditorArgs = z.infer<typeof FileEditorArgsSchema>;

const DESCRIPTION = `View, create and edit files.
* view: a file is shown with line numbers (like \`cat -n\`), a directory as a listing two levels deep. Use view_range for a part of a long file.
* create: writes a new file with file_text; it refuses a path that already exists (edit that file with str_replace instead).
* str_replace: replaces old_str with new_str. old_str must match exactly one place in the file, whitespace and indentation included; include enough surrounding lines to make it unique.
* insert: inserts new_str after line insert_line (0 = top of the file).
* undo_edit: reverts your last edit of that file (repeat to go further back).
Paths are absolute, or relative to the workspace folder.`;

const ActionPayloadSchema = lazySchema(() =>
  z.looseObject({
    command: z.string(),
    path: z.string(),
    file_text: z.string().nullable().optional(),
    old_str: z.string().nullable().optional(),
    new_str: z.string().nullable().optional(),
    insert_line: z.number().nullable().optional(),
    view_range: z.array(z.number()).nullable().optional(),
  }),
);
const ObservationPayloadSchema = lazySchema(() =>
  z.looseObject({
    command: z.string().optional(),
    path: z.string().nullable().optional(),
    prev_exist: z.boolean().optional(),
    old_content: z.string().nullable().optional(),
    new_content: z.string().nullable().optional(),
  }),
);

/** Image files `view` returns as image content (as OpenHands does), not as text. */
const IMAGE_FILE = /\.(png|jpe?g|webp|gif)$/i;

interface UndoEntry {
  existed: boolean;
  text: string;
}

export function createFileEditorTool(options: FileEditorToolOptions = {}): ToolSpec<FileEditorArgs> {
  const viewLimits: ViewLimits = { ...DEFAULT_VIEW_LIMITS, ...options.viewLimits };
  const undoDepth = options.undoDepth ?? 20;
  const history = new Map<string, UndoEntry[]>();

  const remember = (path: string, entry: UndoEntry) => {
    const entries = history.get(path) ?? [];
    entries.push(entry);
    if (entries.length > undoDepth) entries.shift();
    history.set(path, entries);
  };

  async function execute(args: FileEditorArgs, ctx: ToolContext): Promise<ToolObservation> {
    // The same resolution the risk rules judged: the path used is the path that was rated.
    const resolved = resolveToolPath(args.path, ctx.cwd);
    const real = resolved.ok ? realPath(resolved.path) : '';
    const refused = resolved.ok ? boundaryRefusal(args.command, resolved.path, real, ctx) : undefined;
    if (refused) {
      return errorObservation(OBSERVATION_KIND, refused.text, {
        command: args.command,
        path: resolved.ok ? resolved.path : args.path,
        real_path: refused.real,
        prev_exist: false,
        old_content: null,
        new_content: null,
        refused: true,
      });
    }
    if (!resolved.ok) {
      return errorObservation(OBSERVATION_KIND, resolved.error, {
        command: args.command,
        path: args.path,
        prev_exist: false,
        old_content: null,
        new_content: null,
      });
    }
    const path = resolved.path;
    const files = ctx.ports.files;
    // Where the path leads (checked again by the port right before it writes), named in what the
    // model reads and in the log when a symlink takes it elsewhere.
    const expect = { real };
    const shown = real === path ? path : `${real} (through ${path}, a symlink)`;
    const fields = {
      command: args.command,
      path,
      ...(real === path ? {} : { real_path: real }),
      prev_exist: false,
      old_content: null,
      new_content: null,
    };
    const fail = (text: string, prevExist = false) =>
      errorObservation(OBSERVATION_KIND, text, { ...fields, prev_exist: prevExist });
    try {
      const stat = await files.stat(path);
      if (args.command === 'view')
        return await view(files, path, stat?.type, args.view_range, fields, fail, ctx);
      if (args.command === 'undo_edit') return await undo(files, path, shown, expect, fields, fail);
      if (stat?.type === 'directory')
        return fail(`${path} is a directory; ${args.command} works on files.`, true);

      if (args.command === 'create') {
        if (stat)
          return fail(
            `${path} already exists; create only makes new files. Use str_replace to change it.`,
            true,
          );
        const text = args.file_text ?? '';
        await files.writeText(path, text, expect);
        remember(path, { existed: false, text: '' });
        const lines = splitLines(text).length;
        // The text is the action's file_text: stored once, there (see observation-refs).
        return observation(OBSERVATION_KIND, `Created ${shown} (${lines} line${lines === 1 ? '' : 's'}).`, {
          ...fields,
          [NEW_CONTENT_FROM_ACTION]: 'file_text',
        });
      }

      const current = await files.readText(path);
      if (current === undefined) return fail(`${path} does not exist. Use create to make it.`);
      const crlf = current.includes('\r\n');
      const text = crlf ? current.replace(/\r\n/g, '\n') : current;
      const edited = args.command === 'str_replace' ? strReplace(path, text, args) : insert(path, text, args);
      if (!edited.ok) return fail(edited.error, true);
      const newContent = crlf ? edited.text.replace(/\n/g, '\r\n') : edited.text;
      await files.writeText(path, newContent, expect);
      remember(path, { existed: true, text: current });
      const snippet = snippetAround(edited.text, edited.firstLine, edited.lastLine);
      return observation(
        OBSERVATION_KIND,
        `Edited ${shown}. The edited part now reads:\n${snippet}\n` +
          'Check that this is what you intended; undo_edit reverts the edit.',
        { ...fields, prev_exist: true, old_content: current, new_content: newContent },
      );
    } catch (err) {
      if (err instanceof PathMovedError)
        return fail(
          `Not done: ${path} led to ${err.now} at the moment of writing, not to ${err.expected} where it ` +
            'was checked. Nothing was written; call again to have it rated where it leads now.',
        );
      return fail(`file_editor ${args.command} failed on ${path}: ${errorMessage(err)}`);
    }
  }

  /**
   * Why this call must not touch `path`, before anything is read or written: its path now leads
   * elsewhere than where it led when it was recorded and rated (a symlink changed in between), it
   * leads into a place the sandbox hides, or a write leads outside the folders the agent may
   * write. The confirmation mode changes none of these.
   */
  function boundaryRefusal(
    command: string,
    path: string,
    real: string,
    ctx: ToolContext,
  ): { text: string; real: string } | undefined {
    const moved = movedSinceRated(path, real, ctx, 'read or written');
    if (moved) return { real, text: moved };
    const name = real === path ? path : `${path} (a symlink to ${real})`;
    const hidden = hiddenReason(name, real, options.hidden, command === 'view');
    if (hidden)
      return {
        real,
        text: `Refused: ${hidden}. Nothing was read or written; the user cannot allow it here.`,
      };
    if (command === 'view') return undefined;
    const outside = outsideWriteReason(name, real, ctx.ports.files.roots, options.writable?.() ?? []);
    if (!outside) return undefined;
    return {
      real,
      text:
        `Refused: ${outside}. Nothing was written. Write inside the workspace; ` +
        'the user cannot allow a write elsewhere, the confirmation mode decides only what is asked.',
    };
  }

  async function view(
    files: FilePort,
    path: string,
    type: 'file' | 'directory' | undefined,
    viewRange: readonly number[] | undefined,
    fields: Record<string, unknown>,
    fail: (text: string, prevExist?: boolean) => ToolObservation,
    ctx: ToolContext,
  ): Promise<ToolObservation> {
    if (type === undefined) return fail(`${path} does not exist.`);
    if (type === 'directory') {
      if (viewRange) return fail('view_range applies to files, not directories.', true);
      const check = hiddenCheck(options.hidden, true);
      const hidden = (entry: string) => check(entry, realPath(entry)) !== undefined;
      return observation(OBSERVATION_KIND, await viewDirectory(files, path, viewLimits, hidden), {
        ...fields,
        prev_exist: true,
      });
    }
    const images = ctx.ports.images;
    if (images && IMAGE_FILE.test(path)) {
      if (viewRange) return fail('view_range applies to text files, not images.', true);
      const stored = await images.putFile(path);
      if (!stored.ok) return fail(`${path} cannot be viewed as an image: ${stored.error}.`, true);
      return {
        ...observation(OBSERVATION_KIND, `The image ${path} (${stored.mime}, ${stored.bytes} bytes):`, {
          ...fields,
          prev_exist: true,
        }),
        content: [
          { type: 'text', text: `The image ${path} (${stored.mime}, ${stored.bytes} bytes):` },
          { type: 'image', image_urls: [stored.url] },
        ],
      };
    }
    const text = await files.readText(path);
    if (text === undefined) return fail(`${path} does not exist.`);
    const range = viewRange ? ([viewRange[0], viewRange[1]] as [number, number]) : undefined;
    const shown = viewFileText(path, text.replace(/\r\n/g, '\n'), range, viewLimits);
    if (!shown.ok) return fail(shown.error, true);
    return observation(OBSERVATION_KIND, shown.text, { ...fields, prev_exist: true });
  }

  async function undo(
    files: FilePort,
    path: string,
    shown: string,
    expect: { real: string },
    fields: Record<string, unknown>,
    fail: (text: string, prevExist?: boolean) => ToolObservation,
  ): Promise<ToolObservation> {
    const entry = history.get(path)?.pop();
    if (!entry)
      return fail(`There is no edit of ${path} to undo (only edits made by file_editor can be undone).`);
    const current = (await files.readText(path)) ?? null;
    if (entry.existed) await files.writeText(path, entry.text, expect);
    else await files.delete(path, expect);
    const text = entry.existed
      ? `Reverted the last edit of ${shown}.`
      : `Reverted the creation of ${shown}: the file is deleted.`;
    return observation(OBSERVATION_KIND, text, {
      ...fields,
      prev_exist: current !== null,
      old_content: current,
      new_content: entry.existed ? entry.text : null,
    });
  }

  return {
    name: FILE_EDITOR_TOOL_NAME,
    description: DESCRIPTION,
    readOnly: false,
    changesNoFiles: (action) => action.command === 'view',
    actionKind: ACTION_KIND,
    observationKind: OBSERVATION_KIND,
    argsSchema: FileEditorArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.file_editor,
    execute,
    // Where the path leads when the call arrives, recorded so the rating, the confirmation and the
    // log name it, and the tool refuses to act if it leads elsewhere by the time it runs.
    prepareAction: (args, action) =>
      Promise.resolve(withRealPath(typeof args.path === 'string' ? args.path : '', options.cwd, action)),
    toActionFields: (args) => ({
      command: args.command,
      path: args.path,
      file_text: args.file_text ?? null,
      old_str: args.old_str ?? null,
      new_str: args.new_str ?? null,
      insert_line: args.insert_line ?? null,
      view_range: args.view_range ?? null,
    }),
    actionPayloadSchema: ActionPayloadSchema,
    observationPayloadSchema: ObservationPayloadSchema,
  };
}

type EditResult =
  { ok: true; text: string; firstLine: number; lastLine: number } | { ok: false; error: string };

function strReplace(path: string, text: string, args: FileEditorArgs): EditResult {
  const oldStr = (args.old_str ?? '').replace(/\r\n/g, '\n');
  const newStr = (args.new_str ?? '').replace(/\r\n/g, '\n');
  if (oldStr === newStr)
    return { ok: false, error: 'old_str and new_str are identical; nothing would change.' };
  const result = replaceUnique(text, oldStr, newStr);
  if (result.ok) return result;
  if (result.count === 0) {
    return {
      ok: false,
      error:
        `No replacement was made: old_str was not found in ${path}. It must match the file exactly, ` +
        'including whitespace and indentation; view the file to copy the text.',
    };
  }
  return {
    ok: false,
    error:
      `No replacement was made: old_str occurs ${result.count} times in ${path} (at lines ` +
      `${result.lines.join(', ')}). Include more surrounding lines in old_str so it matches exactly one place.`,
  };
}

function insert(path: string, text: string, args: FileEditorArgs): EditResult {
  const line = args.insert_line ?? 0;
  const result = insertAfterLine(text, line, (args.new_str ?? '').replace(/\r\n/g, '\n'));
  if (result.ok) return result;
  return {
    ok: false,
    error: `insert_line ${line} is out of range: ${path} has ${result.lineCount} lines, so use 0 to ${result.lineCount}.`,
  };
}
