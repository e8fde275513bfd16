// Where a workspace's conversations live, whatever storage folder VS Code hands this window.
//
// VS Code names a workspace's storage folder after the workspace (`workspaceStorage/<hash>`). When
// an extension host still holds that folder, it hands the next window of the same workspace
// `<hash>-1`, `<hash>-2`, … . That happens whenever a window outlives its view: code-server keeps
// a closed browser tab's extension host for a reconnection grace of hours, so a user who closes the
// tab and opens the URL again gets a window with a new, empty storage folder.
//
// Conversations therefore live in the workspace's own folder, the one without a suffix, whichever
// folder this window got: every window of the workspace lists the same conversations, and the log's
// writer lock (not the storage folder) decides which window writes one. Conversations an earlier
// version left in a suffixed folder are moved home when no live process writes them.
//
// No `vscode` import: the unit tests run this against real folders.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { liveWriter } from '../../../core/log';
import { conversationFolders } from '../../node/diagnostics/storage-usage';

/** The conversation folders under `root` (not the index, nor a temp file). */
export const listConversationFolders = conversationFolders;

export const CONVERSATIONS_DIR = 'conversations';
/** The checkpoint stores, beside the conversations (checkpoints.ts). */
export const CHECKPOINTS_DIR = 'checkpoints';

export interface WorkspaceHome {
  /** The extension's folder in the workspace's own storage folder. */
  home: string;
  /** The extension's folders in the workspace's other (suffixed) storage folders that exist. */
  siblings: string[];
}

const SUFFIX = /^(.+)-(\d+)$/;

/**
 * The home of `storageDir` (`…/workspaceStorage/<name>[-N]/<extension id>`, VS Code's
 * `ExtensionContext.storageUri`). A folder whose name has no suffix, or whose unsuffixed
 * namesake does not exist, is its own home.
 */
export function workspaceHome(storageDir: string): WorkspaceHome {
  const extension = basename(storageDir);
  const own = dirname(storageDir);
  const all = dirname(own);
  const match = SUFFIX.exec(basename(own));
  const stem = match && isDir(join(all, match[1]!)) ? match[1]! : basename(own);
  const home = join(all, stem, extension);
  let names: string[] = [];
  try {
    names = readdirSync(all);
  } catch {
    /* no storage folder yet: nothing else to look at */
  }
  const siblings = names
    .filter((n) => n !== stem && SUFFIX.exec(n)?.[1] === stem)
    .map((n) => join(all, n, extension))
    .filter(isDir);
  return { home, siblings };
}

export interface Adopted {
  /** Conversation ids moved home. */
  moved: string[];
  /** Conversations left where they are, and why (a live writer, or one of that id at home). */
  left: { id: string; from: string; why: string }[];
}

/**
 * Moves conversations (and their checkpoint stores) from the siblings' folders home. One that a
 * live process writes stays until that process is gone; so do a sibling's checkpoint stores then,
 * as does a store the home already has one of (the two cannot be merged by moving).
 */
export function adoptSiblings(where: WorkspaceHome): Adopted {
  const out: Adopted = { moved: [], left: [] };
  const homeConversations = join(where.home, CONVERSATIONS_DIR);
  for (const sibling of where.siblings) {
    const from = join(sibling, CONVERSATIONS_DIR);
    let busy = false;
    for (const id of listConversationFolders(from)) {
      const dir = join(from, id);
      const writer = liveWriter(dir);
      if (writer) {
        busy = true;
        out.left.push({ id, from, why: `written by pid ${writer.pid}` });
        continue;
      }
      if (existsSync(join(homeConversations, id))) {
        out.left.push({ id, from, why: 'a conversation of that id is already at home' });
        continue;
      }
      mkdirSync(homeConversations, { recursive: true });
      renameSync(dir, join(homeConversations, id));
      out.moved.push(id);
    }
    if (!busy) moveStores(join(sibling, CHECKPOINTS_DIR), join(where.home, CHECKPOINTS_DIR));
  }
  return out;
}

function moveStores(from: string, to: string): void {
  let names: string[];
  try {
    names = readdirSync(from);
  } catch {
    return;
  }
  for (const name of names) {
    if (existsSync(join(to, name))) continue;
    mkdirSync(to, { recursive: true });
    renameSync(join(from, name), join(to, name));
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
