// Review and Apply of a remote conversation's change in the editor, through the CLI's modules: the
// files the server's git reports changed in its working folder (against the commit HEAD was on
// when the conversation started, remote.json's base_commit, else HEAD) in one
// multi-file diff, both sides read-only documents of what the server sent, and Apply writing that
// change into this window's working tree only when the user asks, by `logbook apply`'s rules
// (uncommitted changes here need a confirmation, conflicts are opened and named, never resolved).
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentServerTarget } from '../../node/remote/agent-server-api';
import type { ServerChange } from '../../node/remote/agent-server-git';
import { applyServerChanges, outsideLinks, type RemoteApplyResult } from '../../node/remote/remote-apply';
import type { OutsideLink } from '../../node/remote/remote-link-boundary';
import { serverChangeSet } from '../../node/remote/remote-change-set';
import { secretLocations } from '../../node/sandbox/secret-locations';
import { readDenyRead } from '../sandbox/sandbox-settings';
import { printableLine } from '../../../core/text/printable';
import type { RemoteOrigin } from '../../node/remote/remote-origin';
import { gitTry } from '../../node/worktrees/git-run';
import { applyObstacle } from '../../node/worktrees/apply-task';

export const REMOTE_FILE_SCHEME = 'logbook-remote';

/** The texts the diff editor shows, by URI: what the server sent, held for the window's life. */
const shown = new Map<string, string>();
let provider: vscode.Disposable | undefined;

function ensureProvider(): void {
  provider ??= vscode.workspace.registerTextDocumentContentProvider(REMOTE_FILE_SCHEME, {
    provideTextDocumentContent: (uri) => shown.get(uri.toString()) ?? '',
  });
}

export function disposeRemoteReview(): void {
  provider?.dispose();
  provider = undefined;
  shown.clear();
}

/** logbook-remote:/<conversation>/<side>/<path>: one side of a file the server changed. */
function sideUri(id: string, side: 'head' | 'now', path: string, text: string): vscode.Uri {
  const uri = vscode.Uri.from({ scheme: REMOTE_FILE_SCHEME, path: `/${id}/${side}/${path}` });
  shown.set(uri.toString(), text);
  return uri;
}

/** Both sides of a file renamed whole: the patch has no text of it, and it is not downloaded. */
function renamedWholeText(c: ServerChange): string {
  return vscode.l10n.t(
    "(renamed from {0} to {1}, no change: the server's patch gives no text for a file renamed whole)",
    c.from ?? '',
    c.path,
  );
}

function nowText(c: ServerChange): string {
  if (c.modified?.includes(0)) return vscode.l10n.t('(a binary file: its bytes are not shown)');
  return c.modified?.toString('utf8') ?? '';
}

export interface RemoteReviewArgs {
  id: string;
  origin: RemoteOrigin;
  target: AgentServerTarget;
}

/** Opens the server's change in one multi-file diff; resolves to the number of files changed. */
export async function reviewRemoteChanges({ id, origin, target }: RemoteReviewArgs): Promise<number> {
  const { changes } = await serverChangeSet(target, origin.working_dir, origin.base_commit);
  if (changes.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Logbook: {0} reports no change in {1}.', origin.server, origin.working_dir),
    );
    return 0;
  }
  ensureProvider();
  const resources = changes.map((c) => {
    // The server sends no text for a deleted file (unless its patch has it): its HEAD side stays
    // empty. A rename is one file, its HEAD side under the old name.
    // Renamed whole: no text on either side would read as a file emptied; both say what it is.
    const whole = c.status === 'RENAMED' && c.modified === null ? renamedWholeText(c) : undefined;
    const head =
      c.status === 'ADDED' ? undefined : sideUri(id, 'head', c.from ?? c.path, whole ?? c.original ?? '');
    const now = c.status === 'DELETED' ? undefined : sideUri(id, 'now', c.path, whole ?? nowText(c));
    return [now ?? head!, head, now];
  });
  await vscode.commands.executeCommand(
    'vscode.changes',
    vscode.l10n.t('Changes on {0} ({1})', origin.server, origin.working_dir),
    resources,
  );
  return changes.length;
}

/** The working tree the change goes into: the window's first folder's repository. */
function localWorkingTree(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error(vscode.l10n.t('Open a folder to apply a remote change into.'));
  const top = gitTry(folder, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) throw new Error(vscode.l10n.t('{0} is not in a git repository.', folder));
  return top.stdout.trim();
}

/**
 * Applies the server's change to the local working tree; undefined when nothing was applied (the
 * user said no, or the tree has nothing to take). `confirmed`: the user already agreed to apply over
 * uncommitted changes (a command argument, as for tests).
 */
export async function applyRemoteChanges(
  {
    origin,
    target,
    ownFolders,
  }: RemoteReviewArgs & {
    /** The window's own folders (storage, logs): nothing of the server's is written or linked there. */
    ownFolders: readonly string[];
  },
  confirmed = false,
  /** The symlinks (by path) the user already agreed may lead outside the tree (as for tests). */
  agreedLinks?: readonly string[],
): Promise<RemoteApplyResult | undefined> {
  if (!vscode.workspace.isTrusted)
    throw new Error(
      vscode.l10n.t('This workspace is not trusted: Logbook applies no change from an agent-server to it.'),
    );
  const into = localWorkingTree();
  const blocked = applyObstacle(into, true);
  if (blocked) throw new Error(blocked);
  if (!confirmed && applyObstacle(into, false)) {
    const anyway = vscode.l10n.t('Apply Anyway');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Your working tree has uncommitted changes. Apply the change from {0} over them?',
        origin.server,
      ),
      {
        modal: true,
        detail: vscode.l10n.t(
          'A file changed here and on the server is merged; what does not merge is left with conflict markers for you. Committing or stashing your changes first is safer.',
        ),
      },
      anyway,
    );
    if (choice !== anyway) return undefined;
  }
  // With the executable bit, renames and symlinks where the server's patch gives them.
  const { changes } = await serverChangeSet(target, origin.working_dir, origin.base_commit ?? 'HEAD');
  if (changes.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Logbook: {0} reports no change in {1}: nothing to apply.',
        origin.server,
        origin.working_dir,
      ),
    );
    return undefined;
  }
  // Nothing of the server's is written, and no symlink of its leads, where the sandbox hides (as
  // for the CLI; the editor's list, with the window's own storage and logs).
  const hidden = secretLocations({
    ...xdgHomes(),
    extra: readDenyRead(),
    own: ownFolders,
  });
  const offered = outsideLinks(into, changes, hidden);
  const agreed =
    offered.length === 0
      ? []
      : agreedLinks !== undefined
        ? offered.filter((l) => agreedLinks.includes(l.path))
        : await askOutsideLinks(origin.server, into, offered);
  const r = applyServerChanges(into, changes, hidden, (path, leads) =>
    agreed.some((l) => l.path === path && l.leads === leads),
  );
  const done = r.applied.length + r.merged.length;
  if (r.conflicts.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Logbook: applied the change from {0}: {1} file(s), {2} merged with changes here. Nothing was committed: review it in Source Control.',
        origin.server,
        String(done),
        String(r.merged.length),
      ),
    );
    return r;
  }
  for (const c of r.conflicts) {
    const file = vscode.Uri.file(join(into, c.file ?? c.path));
    await Promise.resolve(vscode.window.showTextDocument(file, { preview: false })).catch(() => undefined);
  }
  void vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Logbook: applied {0} file(s) from {1}; {2} need you: {3}. Nothing was resolved for you.',
      String(done),
      origin.server,
      String(r.conflicts.length),
      r.conflicts.map((c) => `${c.path} (${c.why})`).join('; '),
    ),
  );
  return r;
}

/** The XDG folders the sandbox reads Logbook's own places from, when they are set. */
function xdgHomes(): { configHome?: string; stateHome?: string; cacheHome?: string } {
  const env = process.env;
  return {
    ...(env['XDG_CONFIG_HOME'] ? { configHome: env['XDG_CONFIG_HOME'] } : {}),
    ...(env['XDG_STATE_HOME'] ? { stateHome: env['XDG_STATE_HOME'] } : {}),
    ...(env['XDG_CACHE_HOME'] ? { cacheHome: env['XDG_CACHE_HOME'] } : {}),
  };
}

/**
 * Asks once whether the server's symlinks that lead outside the working tree are made, each shown
 * with the real place it leads; the ones agreed to (all or none). A place the sandbox hides is
 * never asked about: those are refused.
 */
async function askOutsideLinks(
  server: string,
  into: string,
  offered: readonly OutsideLink[],
): Promise<readonly OutsideLink[]> {
  const make = vscode.l10n.t('Make Them');
  // A question that cannot be shown (a window without dialogs) is a no: none is made.
  const choice = await Promise.resolve(
    vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The change from {0} has {1} symlink(s) that lead outside {2}. Make them too?',
        server,
        String(offered.length),
        into,
      ),
      {
        modal: true,
        detail: [
          ...offered.map((l) =>
            printableLine(`${l.path} → ${l.target} (${vscode.l10n.t('leads to {0}', l.leads)})`),
          ),
          '',
          vscode.l10n.t(
            "Whatever follows a symlink reaches that place: your tools and the editor do, and the agent's file tools judge a path through it by where it really leads, as any path outside the working tree. Not made, each is listed with the reason and the rest of the change is applied.",
          ),
        ].join('\n'),
      },
      make,
    ),
  ).catch(() => undefined);
  return choice === make ? offered : [];
}
