// What the user attached to a message, read when the message is sent: each becomes a text part with
// a header (so the log holds exactly what the model saw) or a stored image. Whatever cannot be
// attached says why in its part instead of vanishing. Paths are judged by where they really lead:
// a file outside the workspace, or one that may hold secrets, is attached only if the user says so.
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { attachmentText, editorContextText } from '../../../core/attachments/attachment-text';
import { type ImageStore, imageSizeText, sniffImageMime } from '../../../core/attachments/image-store';
import { isInsideAny, realPath } from '../../../core/security/resolve-path';
import { secretReason, sensitiveReadReason } from '../../../core/security/sensitive-paths';
import type { Attachment } from '../../../protocol/messages';
import { checkTarget, guardedFetch, isAllowedHost, type WebRules } from '../../node/web/guarded-fetch';
import { readWebRules } from '../settings/web-settings';
import type { TerminalHistory } from './terminal-history';
import { readable } from '../../node/web/node-web-port';

/** Files larger than this are not read whole (the agent can view parts of them). */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Entries listed for an attached folder. */
export const MAX_FOLDER_ENTRIES = 500;
/** Bytes read of a web page. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 15_000;

export interface AttachmentDeps {
  images: ImageStore;
  terminals: TerminalHistory;
  /** Asks the user (a modal); resolves true when `action` was chosen. */
  confirm(message: string, action: string): Promise<boolean>;
  /** Reads a resource of a running MCP server (absent: no MCP servers in this window). */
  readResource?(
    server: string,
    uri: string,
  ): Promise<{ text: string; binary: { mimeType: string; bytes: number }[] }>;
  /** A prompt of a running MCP server, its messages as text. */
  getPrompt?(server: string, name: string): Promise<string>;
  /** The address rules for URL mentions (absent: read from the `logbook.web.*` settings). */
  web?: WebRules;
}

export interface ResolvedAttachments {
  /** Text parts, each starting with its "--- Attached ... ---" header. */
  texts: string[];
  /** Stored-image URLs. */
  images: string[];
}

export async function resolveAttachments(
  attachments: readonly Attachment[],
  deps: AttachmentDeps,
): Promise<ResolvedAttachments> {
  const out: ResolvedAttachments = { texts: [], images: [] };
  for (const a of attachments) {
    try {
      await resolveOne(a, deps, out);
    } catch (err) {
      out.texts.push(
        attachmentText(describe(a), `[Not attached: ${err instanceof Error ? err.message : String(err)}]`),
      );
    }
  }
  return out;
}

function describe(a: Attachment): string {
  switch (a.kind) {
    case 'file':
    case 'folder':
      return `${a.kind} ${a.path}`;
    case 'problems':
      return a.path ? `problems in ${a.path}` : 'problems in the workspace';
    case 'url':
      return `page ${a.url}`;
    case 'image':
      return `image ${a.name ?? ''}`;
    case 'terminal':
      return 'terminal output';
    case 'diff':
      return 'git diff';
    case 'selection':
      return 'selection';
    case 'resource':
      return `resource ${a.uri} of MCP server "${a.server}"`;
    case 'prompt':
      return `prompt "${a.name}" of MCP server "${a.server}"`;
  }
}

async function resolveOne(a: Attachment, deps: AttachmentDeps, out: ResolvedAttachments): Promise<void> {
  switch (a.kind) {
    case 'file':
      return attachFile(a.path, deps, out);
    case 'folder':
      out.texts.push(await folderText(a.path, deps));
      return;
    case 'selection':
      out.texts.push(selectionText());
      return;
    case 'problems':
      out.texts.push(problemsText(a.path));
      return;
    case 'terminal':
      out.texts.push(terminalText(deps.terminals));
      return;
    case 'diff':
      out.texts.push(await diffText());
      return;
    case 'url':
      out.texts.push(await pageText(a.url, deps));
      return;
    case 'prompt': {
      if (!deps.getPrompt) throw new Error('no MCP server runs in this window');
      out.texts.push(attachmentText(describe(a), (await deps.getPrompt(a.server, a.name)) || '(empty)'));
      return;
    }
    case 'resource': {
      if (!deps.readResource) throw new Error('no MCP server runs in this window');
      const r = await deps.readResource(a.server, a.uri);
      // Binary contents are named, not inlined: the model reads text here.
      const notes = r.binary.map(
        (b) => `[A binary part (${b.mimeType}, ${b.bytes.toLocaleString('en-US')} bytes) is not attached.]`,
      );
      out.texts.push(attachmentText(describe(a), [r.text, ...notes].filter(Boolean).join('\n') || '(empty)'));
      return;
    }
    case 'image': {
      const stored = await deps.images.put(Buffer.from(a.data, 'base64'));
      if (stored.ok) out.images.push(stored.url);
      else out.texts.push(attachmentText(`image ${a.name ?? ''}`, `[Not attached: ${stored.error}.]`));
      return;
    }
  }
}

// --- files and folders ------------------------------------------------------------------------

/** The URI a mentioned path names: a URI as dropped from the explorer, or a workspace-relative path. */
export function mentionUri(path: string): vscode.Uri {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(path)) {
    const uri = vscode.Uri.parse(path, true);
    const schemes = new Set(['file', ...folders.map((f) => f.uri.scheme)]);
    if (!schemes.has(uri.scheme)) throw new Error(`${path} is not a file of this machine`);
    return uri;
  }
  const relative = path.replace(/\\/g, '/').replace(/\/$/, '');
  if (folders.length > 1) {
    // Paths of a multi-root workspace start with the folder's name (as asRelativePath gives them).
    const [first, ...rest] = relative.split('/');
    const folder = folders.find((f) => f.name === first);
    if (folder) return vscode.Uri.joinPath(folder.uri, ...rest);
  }
  const root = folders[0];
  if (!root) throw new Error('there is no workspace folder to find it in');
  return vscode.Uri.joinPath(root.uri, relative);
}

/** A reason to ask before attaching the file at `uri` (outside the workspace, or secret), or undefined. */
function attachConcern(uri: vscode.Uri): string | undefined {
  const real = realPath(uri.fsPath);
  const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const secret = secretReason(real) ?? sensitiveReadReason(real);
  if (secret) return secret;
  if (!isInsideAny(real, roots))
    return real === uri.fsPath
      ? `${real} is outside the workspace`
      : `it leads to ${real}, outside the workspace`;
  return undefined;
}

async function allowed(uri: vscode.Uri, label: string, deps: AttachmentDeps): Promise<string | undefined> {
  const concern = attachConcern(uri);
  if (!concern) return undefined;
  const ok = await deps.confirm(
    `Attach ${label} to the message? ${concern[0]!.toUpperCase()}${concern.slice(1)}; its text will be sent to the model and kept in the conversation.`,
    'Attach',
  );
  return ok ? undefined : `the user chose not to attach it (${concern})`;
}

async function attachFile(path: string, deps: AttachmentDeps, out: ResolvedAttachments): Promise<void> {
  const uri = mentionUri(path);
  const label = vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  const refused = await allowed(uri, label, deps);
  if (refused) {
    out.texts.push(attachmentText(`file ${label}`, `[Not attached: ${refused}.]`));
    return;
  }
  const stat = await vscode.workspace.fs.stat(uri).then(
    (s) => s,
    () => undefined,
  );
  if (!stat) {
    out.texts.push(attachmentText(`file ${label}`, '[Not attached: the file does not exist.]'));
    return;
  }
  if (stat.type & vscode.FileType.Directory) {
    out.texts.push(await folderText(path, deps));
    return;
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    out.texts.push(fileText(label, open.getText(), open.languageId));
    return;
  }
  if (stat.size > MAX_FILE_BYTES) {
    out.texts.push(
      attachmentText(
        `file ${label}`,
        `[Not attached: the file is ${imageSizeText(stat.size)}, over the ${imageSizeText(MAX_FILE_BYTES)} a file may have; the agent can view parts of it.]`,
      ),
    );
    return;
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (sniffImageMime(bytes)) {
    const stored = await deps.images.put(bytes);
    if (stored.ok) out.images.push(stored.url);
    else out.texts.push(attachmentText(`image ${label}`, `[Not attached: ${stored.error}.]`));
    return;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.includes('\u0000')) {
    out.texts.push(attachmentText(`file ${label}`, '[Not attached: it is a binary file.]'));
    return;
  }
  out.texts.push(fileText(label, text, languageOf(label)));
}

function fileText(label: string, text: string, language: string): string {
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return attachmentText(`file ${label} (${lines} line${lines === 1 ? '' : 's'})`, text, { fence: language });
}

function languageOf(path: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return /^[a-z0-9]{1,12}$/.test(ext) ? ext : '';
}

async function folderText(path: string, deps: AttachmentDeps): Promise<string> {
  const uri = mentionUri(path);
  const label = vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  const refused = await allowed(uri, `the folder ${label}`, deps);
  if (refused) return attachmentText(`folder ${label}`, `[Not attached: ${refused}.]`);
  const found = await vscode.workspace.findFiles(
    new vscode.RelativePattern(uri, '**/*'),
    '{**/node_modules/**,**/.git/**}',
    MAX_FOLDER_ENTRIES + 1,
  );
  const base = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
  const names = found.map((u) => u.path.slice(base.length)).sort();
  const shown = names.slice(0, MAX_FOLDER_ENTRIES);
  const more =
    names.length > MAX_FOLDER_ENTRIES
      ? `\n[More files follow; the first ${MAX_FOLDER_ENTRIES} are listed.]`
      : '';
  const body = shown.length ? shown.join('\n') + more : '[The folder has no files, or does not exist.]';
  return attachmentText(`folder ${label} (its files)`, body);
}

// --- editor state -----------------------------------------------------------------------------

function selectionText(): string {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty)
    return attachmentText('selection', '[Not attached: no text is selected in an editor.]');
  const { start, end } = editor.selection;
  return editorContextText({
    path: vscode.workspace.asRelativePath(editor.document.uri),
    selection: {
      text: editor.document.getText(editor.selection),
      startLine: start.line + 1,
      endLine: end.line + 1,
      language: editor.document.languageId,
    },
  });
}

const SEVERITY = ['error', 'warning', 'info', 'hint'];

/** Problems (diagnostics) of one file or of the workspace, one per line with its range and source. */
export function problemsText(path?: string): string {
  const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = path
    ? [[mentionUri(path), vscode.languages.getDiagnostics(mentionUri(path))]]
    : vscode.languages.getDiagnostics();
  const lines: string[] = [];
  let files = 0;
  for (const [uri, diagnostics] of entries) {
    if (diagnostics.length === 0) continue;
    files++;
    const label = vscode.workspace.asRelativePath(uri);
    for (const d of [...diagnostics].sort(
      (a, b) => a.severity - b.severity || a.range.start.compareTo(b.range.start),
    )) {
      const { start, end } = d.range;
      const where = `${label}:${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1}`;
      const code = typeof d.code === 'object' ? d.code.value : d.code;
      const origin = [d.source, code].filter((x) => x !== undefined && x !== '').join(' ');
      lines.push(
        `${where} ${SEVERITY[d.severity] ?? 'problem'}: ${d.message}${origin ? ` [${origin}]` : ''}`,
      );
    }
  }
  const scope = path ? vscode.workspace.asRelativePath(mentionUri(path)) : 'the workspace';
  const count = `${lines.length} problem${lines.length === 1 ? '' : 's'}${path ? '' : ` in ${files} file${files === 1 ? '' : 's'}`}`;
  return attachmentText(
    `problems in ${scope} (${count})`,
    lines.length ? lines.join('\n') : 'No problems are reported.',
  );
}

function terminalText(terminals: TerminalHistory): string {
  const c = terminals.latest();
  if (!c)
    return attachmentText(
      'terminal output',
      '[Not attached: no terminal command was recorded. Logbook sees the commands run since it started, in terminals with shell integration.]',
    );
  const status = c.running
    ? 'still running'
    : c.exitCode === undefined
      ? 'exit code unknown'
      : `exit code ${c.exitCode}`;
  const dropped =
    c.dropped > 0
      ? `[The first ${c.dropped.toLocaleString('en-US')} characters of the output were not kept.]\n`
      : '';
  return attachmentText(
    `output of \`${c.command.replace(/`/g, "'")}\` in terminal "${c.terminal}" (${status})`,
    dropped + (c.output.trim() === '' ? '(no output was captured)' : c.output),
    { fence: '' },
  );
}

// --- git and the web --------------------------------------------------------------------------

function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 20_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(stderr.trim() || err.message));
      else resolve(stdout);
    });
  });
}

async function diffText(): Promise<string> {
  // A repository's own config can make git run programs (fsmonitor, diff drivers): not in a
  // workspace the user has not trusted, as VS Code's git support is off there too.
  if (!vscode.workspace.isTrusted)
    return attachmentText('git diff', '[Not attached: git does not run in an untrusted workspace.]');
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0)
    return attachmentText('git diff', '[Not attached: there is no local workspace folder.]');
  const parts: string[] = [];
  for (const f of folders) {
    const cwd = f.uri.fsPath;
    try {
      const diff = await git(
        ['-c', 'core.fsmonitor=false', 'diff', 'HEAD', '--no-color', '--no-ext-diff', '--no-textconv'],
        cwd,
      );
      const untracked = (await git(['ls-files', '--others', '--exclude-standard'], cwd)).trim();
      const name = folders.length > 1 ? `${f.name}: ` : '';
      parts.push(
        (diff.trim() ? `${name}${diff.trimEnd()}` : `${name}no changes to tracked files against HEAD.`) +
          (untracked ? `\n\n${name}untracked files:\n${untracked}` : ''),
      );
    } catch (err) {
      parts.push(
        `${f.name}: git could not show a diff (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  }
  return attachmentText('git diff of the working tree against HEAD', parts.join('\n\n'), { fence: 'diff' });
}

async function pageText(url: string, deps: AttachmentDeps): Promise<string> {
  const rules = deps.web ?? readWebRules();
  // The name is resolved and checked before asking, so the question names the address and a
  // forbidden target is refused without one. A FetchRefused becomes the part's "Not attached" note.
  const target = await checkTarget(url, rules);
  const where = target.address ? `${target.url.host} at ${target.address}` : 'an inline data: URL';
  if (!isAllowedHost(url, rules)) {
    const ok = await deps.confirm(
      `Fetch ${target.url.href} (${where}) and attach its text to the message? The page is read from this machine, and its text is sent to the model. Redirects are followed only to addresses the rules allow.`,
      'Fetch',
    );
    if (!ok) return attachmentText(`page ${url}`, '[Not attached: the user chose not to fetch it.]');
  }
  const page = await guardedFetch(url, {
    ...rules,
    first: target,
    maxBytes: MAX_PAGE_BYTES,
    timeoutMs: PAGE_TIMEOUT_MS,
  });
  const type = page.contentType;
  const from = page.address ? `, from ${page.address}` : '';
  const redirected = page.redirects.length ? `, redirected from ${url}` : '';
  const label = `page ${page.url} (HTTP ${page.status}${type ? `, ${type}` : ''}${from}${redirected})`;
  // The same reading as the web_fetch tool's: HTML as Markdown (its main content, links kept),
  // the page's declared charset, and a reason when it is not text.
  const doc = await readable(page, false, MAX_PAGE_BYTES);
  if (doc.type === 'image')
    return attachmentText(label, '[Not attached: it is an image; attach it as an image.]');
  if (doc.type === 'unreadable') return attachmentText(label, `[Not attached: ${doc.reason}.]`);
  const text = doc.title && !doc.text.includes(doc.title) ? `# ${doc.title}\n\n${doc.text}` : doc.text;
  const cut = page.cut ? `\n[Only the first ${imageSizeText(MAX_PAGE_BYTES)} of the page were read.]` : '';
  return attachmentText(label, text + cut);
}
