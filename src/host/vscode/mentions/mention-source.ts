// Mention completion on the host: the typed query against the workspace's files and folders and
// the other things a message can carry (selection, problems, terminal output, git diff, a URL).
import * as vscode from 'vscode';
import { fuzzyScore } from '../../../core/mentions/fuzzy-rank';
import type { MentionItem } from '../../../protocol/messages';
import type { TerminalHistory } from './terminal-history';
import { WorkspaceFiles } from './workspace-files';

/** Items one answer holds at most. */
export const MAX_MENTION_ITEMS = 30;

export class MentionSource implements vscode.Disposable {
  readonly files = new WorkspaceFiles();

  constructor(
    private readonly terminals: TerminalHistory,
    /** Resources of the window's running MCP servers. */
    private readonly mcp?: {
      resources(): Promise<{ server: string; uri: string; name: string; description?: string }[]>;
      prompts(): Promise<{ server: string; name: string; description?: string; required: string[] }[]>;
    },
  ) {}

  async candidates(query: string): Promise<MentionItem[]> {
    const q = query.trim();
    if (/^https?:\/\/\S+$/i.test(q))
      return [{ kind: 'url', label: q, path: q, detail: vscode.l10n.t('Fetch this page (asks first)') }];
    const specials = [...this.specials(), ...(await this.resources())].filter(
      (s) =>
        q === '' ||
        matches(q, s.label) ||
        matches(q, s.kind) ||
        (s.kind === 'resource' && matches(q, s.path ?? '')),
    );
    const room = MAX_MENTION_ITEMS - specials.length;
    const files = (await this.files.search(q, room)).map((e): MentionItem => ({
      kind: e.folder ? 'folder' : 'file',
      label: e.path,
      path: e.path.replace(/\/$/, '') || e.path,
    }));
    // An empty query shows the special items first; a typed one shows files first, then specials.
    return (q === '' ? [...specials, ...files] : [...files, ...specials]).slice(0, MAX_MENTION_ITEMS);
  }

  /**
   * The prompts of the running MCP servers that can be sent as they are (no required arguments),
   * for a "/" that starts the message.
   */
  async prompts(query: string): Promise<MentionItem[]> {
    const q = query.trim();
    const found = (await this.mcp?.prompts().catch(() => [])) ?? [];
    return found
      .filter((p) => p.required.length === 0 && p.name.length <= 200 && p.server.length <= 200)
      .filter((p) => q === '' || matches(q, p.name))
      .slice(0, MAX_MENTION_ITEMS)
      .map((p) => ({
        kind: 'prompt' as const,
        label: p.name,
        detail: `MCP “${p.server}”${p.description ? ` · ${p.description}` : ''}`.slice(0, 200),
        path: p.name,
        server: p.server,
      }));
  }

  /** Resources of the running MCP servers (a server that is slow to answer lists none). */
  private async resources(): Promise<MentionItem[]> {
    const found = await this.mcp?.resources().catch(() => []);
    // What the protocol cannot carry (a URI longer than a URL may be, a long server name) is left out.
    const carried = (found ?? []).filter((r) => r.uri.length <= 2_048 && r.server.length <= 200);
    return carried.slice(0, MAX_MENTION_ITEMS).map((r) => ({
      kind: 'resource' as const,
      label: r.name.slice(0, 200) || r.uri.slice(0, 200),
      detail: `MCP “${r.server}” · ${r.description ?? r.uri}`.slice(0, 200),
      path: r.uri,
      server: r.server,
    }));
  }

  private specials(): MentionItem[] {
    const items: MentionItem[] = [];
    const editor = vscode.window.activeTextEditor;
    if (editor && !editor.selection.isEmpty)
      items.push({
        kind: 'selection',
        label: 'Selection',
        detail: vscode.l10n.t(
          '{0}, line {1}',
          vscode.workspace.asRelativePath(editor.document.uri),
          editor.selection.start.line + 1,
        ),
      });
    const all = vscode.languages.getDiagnostics().filter(([, d]) => d.length > 0);
    const total = all.reduce((n, [, d]) => n + d.length, 0);
    items.push({ kind: 'problems', label: 'Problems', detail: vscode.l10n.t('{0} in the workspace', total) });
    for (const [uri, d] of all.slice(0, 10))
      items.push({
        kind: 'problems',
        label: `Problems in ${vscode.workspace.asRelativePath(uri)}`,
        detail: `${d.length}`,
        path: vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1),
      });
    const last = this.terminals.latest();
    items.push({
      kind: 'terminal',
      label: 'Terminal',
      detail: last
        ? vscode.l10n.t('output of {0}', last.command.slice(0, 80))
        : vscode.l10n.t("the last command's output"),
    });
    items.push({ kind: 'diff', label: 'Git diff', detail: vscode.l10n.t('changes of the working tree') });
    return items;
  }

  dispose(): void {
    this.files.dispose();
  }
}

function matches(query: string, text: string): boolean {
  return fuzzyScore(query.toLowerCase(), text) >= 0;
}
