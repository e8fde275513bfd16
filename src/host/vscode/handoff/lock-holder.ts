// Which window writes a conversation, in words. The writer lock of a log (core/log/lock.ts) carries
// them, so a window that finds a conversation held can say which window holds it: with code-server,
// a closed browser tab's window lives on for a while and keeps writing what it had open.
import { hostname } from 'node:os';
import * as vscode from 'vscode';
import type { LockInfo } from '../../../core/log';

/** When this window's extension host started, as its lock names it (local time of the host). */
const openedAt = new Date();

/** This window, for the locks it takes: e.g. `the code-server window on “app” opened at 07:42:10`. */
export function windowLockHolder(): string {
  const name = vscode.workspace.name ?? 'no folder';
  const time = openedAt.toLocaleTimeString('en-GB', { hour12: false });
  const day = openedAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
  return `the ${vscode.env.appName} window on “${name}” opened ${day} at ${time}`;
}

/** The holder of a lock as a reader's message names it, with its process (and host, when another). */
export function describeHolder(info: LockInfo): string {
  const where = info.hostname === hostname() ? '' : ` on ${info.hostname}`;
  return `${info.holder ?? 'another process'} (pid ${info.pid}${where})`;
}
