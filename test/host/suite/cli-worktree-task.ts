// A worktree task run by this extension's `logbook` CLI in the window's folder, as a terminal there
// would run it (the task's repository is that folder's), against the scripted model.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { EXTENSION_ID } from './helpers';

/** This extension's packaged CLI. */
export const extensionCli = (): string =>
  join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');

/** `logbook run --worktree=name PROMPT` from `root`, its tasks kept under `data`; its exit code. */
export async function cliWorktreeTask(
  root: string,
  name: string,
  prompt: string,
  llm: ScriptedLlm,
  data: string,
): Promise<number | null> {
  const child = spawn(
    process.execPath,
    [extensionCli(), 'run', `--worktree=${name}`, '--confirm', 'never', prompt],
    {
      cwd: root,
      env: {
        ...process.env,
        ELECTRON_RUN_AS_NODE: '1',
        LOGBOOK_BASE_URL: llm.baseUrl,
        LOGBOOK_MODEL: 'scripted-model',
        LOGBOOK_WORKTREES_DIR: data,
      },
      stdio: 'ignore',
    },
  );
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}
