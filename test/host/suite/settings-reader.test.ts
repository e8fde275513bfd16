// The editor reads its `logbook.*` settings through the schema the CLI reads too: a value the
// schema refuses is the default (not whatever VS Code holds), the workspace's settings override the
// user's, and a machine setting written into a repository's .vscode/settings.json is ignored.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { readCheckpointSettings } from '../../../src/host/vscode/checkpoints/checkpoints';
import {
  editorSetting,
  readCondenserSettings,
  terminalTimeoutSeconds,
} from '../../../src/host/vscode/settings/config';
import { readSandboxSetting } from '../../../src/host/vscode/sandbox/sandbox-settings';
import { readWebRules } from '../../../src/host/vscode/settings/web-settings';
import { workspaceRoot } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('logbook');

/** Resolves once `key` (without `logbook.`) reads `expected` after a change VS Code reports. */
function settingBecomes(key: string, expected: unknown, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`logbook.${key} did not become ${JSON.stringify(expected)} in ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`logbook.${key}`) && cfg().get(key) === expected) {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }
    });
  });
}

describe('settings: the editor reads them through the schema', () => {
  const workspaceSettings = join(workspaceRoot(), '.vscode', 'settings.json');
  const userKeys = ['terminal.timeoutSeconds', 'condenser.maxSize', 'checkpoints.maxFileSizeMB'];

  afterEach(async () => {
    rmSync(dirname(workspaceSettings), { recursive: true, force: true });
    for (const key of userKeys) await cfg().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('a value the schema refuses reads as the default; a good one as itself', async () => {
    await cfg().update('terminal.timeoutSeconds', 601, vscode.ConfigurationTarget.Global);
    await cfg().update('condenser.maxSize', 'many', vscode.ConfigurationTarget.Global);
    assert.equal(cfg().get('terminal.timeoutSeconds'), 601, 'VS Code itself hands the value on');
    assert.equal(terminalTimeoutSeconds(), 30, 'above the schema maximum of 600: the default');
    assert.equal(readCondenserSettings().maxSize, 120, 'not a number: the default');

    await cfg().update('terminal.timeoutSeconds', 45, vscode.ConfigurationTarget.Global);
    await cfg().update('checkpoints.maxFileSizeMB', 2, vscode.ConfigurationTarget.Global);
    assert.equal(terminalTimeoutSeconds(), 45);
    assert.equal(readCheckpointSettings().maxFileBytes, 2 * 1024 * 1024);
  });

  it("the workspace's settings override the user's, but not for a machine setting", async () => {
    await cfg().update('terminal.timeoutSeconds', 45, vscode.ConfigurationTarget.Global);
    assert.equal(readSandboxSetting(), 'auto');
    const changed = settingBecomes('terminal.timeoutSeconds', 50);
    mkdirSync(dirname(workspaceSettings), { recursive: true });
    writeFileSync(
      workspaceSettings,
      JSON.stringify({
        'logbook.terminal.timeoutSeconds': 50,
        'logbook.sandbox.mode': 'off',
        'logbook.web.allowPrivateAddresses': true,
      }),
    );
    await changed;
    assert.equal(terminalTimeoutSeconds(), 50, 'the workspace value');
    assert.equal(readSandboxSetting(), 'auto', "a repository's file cannot turn the sandbox off");
    assert.equal(readWebRules().allowPrivateAddresses, false, 'nor open the private network to fetches');
  });

  it('a key that is not a setting of the editor is a programming error, not a silent default', () => {
    assert.throws(() => editorSetting('llm.noSuchSetting'), /not a setting of the editor/);
    assert.throws(
      () => editorSetting('checkpoints.dir'),
      /not a setting of the editor/,
      'a CLI-only setting',
    );
  });
});
