// The model's settings were logbook.llm.*; a value still under an old key moves to its new key at
// the same scope (user or workspace), the old key goes, and the log says so in one line. At
// activation (test/host/run.mjs starts the window with an old key in the user settings) and when
// settings.json gains old keys later, as Settings Sync or a pasted file would bring them.
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { logbook, untilValue, workspaceRoot } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('logbook');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('settings under their old logbook.llm.* names', function () {
  this.timeout(60_000);
  const userSettings = join(dirname(workspaceRoot()), 'udd', 'User', 'settings.json');
  const workspaceSettings = join(workspaceRoot(), '.vscode', 'settings.json');
  let userBefore = '';

  before(() => {
    userBefore = readFileSync(userSettings, 'utf8');
  });

  after(async () => {
    rmSync(join(workspaceRoot(), '.vscode'), { recursive: true, force: true });
    writeFileSync(userSettings, userBefore);
    await untilValue('the user settings restored', () =>
      cfg().inspect('model.temperature')?.globalValue === undefined ? true : undefined,
    );
  });

  /** The lines of this window's Logbook log that tell of old names. */
  async function noticeLines(): Promise<string[]> {
    const api = await logbook();
    return filesUnder(dirname(api.logUri.fsPath))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
      .filter((l) => l.includes('Settings under old names'));
  }

  it('at activation: the old key in the user settings is under its new key, and the log says so', async () => {
    await logbook();
    const onDisk = readJson(userSettings);
    assert.equal(onDisk['logbook.llm.maxReplyBytes'], undefined, 'the old key is gone from settings.json');
    assert.equal(onDisk['logbook.model.maxReplyBytes'], 4194304);
    assert.equal(cfg().inspect('llm.maxReplyBytes')?.globalValue, undefined);
    await untilLines((all) =>
      all.some((l) =>
        l.includes(
          'moved to their new names: logbook.llm.maxReplyBytes → logbook.model.maxReplyBytes (user)',
        ),
      )
        ? all
        : undefined,
    );
  });

  it('old keys added to the user and workspace settings.json move to the new keys at the same scope', async () => {
    await logbook();
    const user = readJson(userSettings);
    writeFileSync(
      userSettings,
      JSON.stringify(
        {
          ...user,
          'logbook.llm.baseUrl': 'http://127.0.0.1:9/old-user/v1',
          'logbook.llm.temperature': 0.5,
          // Set under both names with other values: the new one stays, the old one is not lost.
          'logbook.llm.supportsImages': false,
          'logbook.model.supportsImages': true,
        },
        null,
        2,
      ),
    );
    mkdirSync(dirname(workspaceSettings), { recursive: true });
    writeFileSync(
      workspaceSettings,
      JSON.stringify(
        { 'logbook.llm.model': 'old-workspace-model', 'logbook.llm.promptCaching': 'off' },
        null,
        2,
      ),
    );

    await untilValue('the old keys moved', () => {
      const moved =
        cfg().inspect('model.baseURL')?.globalValue === 'http://127.0.0.1:9/old-user/v1' &&
        cfg().inspect('model.name')?.workspaceValue === 'old-workspace-model' &&
        cfg().inspect('model.promptCaching')?.workspaceValue === 'off' &&
        cfg().inspect('model.temperature')?.globalValue === 0.5 &&
        ['llm.baseUrl', 'llm.temperature'].every((k) => cfg().inspect(k)?.globalValue === undefined) &&
        ['llm.model', 'llm.promptCaching'].every((k) => cfg().inspect(k)?.workspaceValue === undefined);
      return moved ? true : undefined;
    });

    // Each at its own scope only: nothing of the workspace went to the user, nor the other way.
    assert.equal(cfg().inspect('model.name')?.globalValue, undefined);
    assert.equal(cfg().inspect('model.baseURL')?.workspaceValue, undefined);
    const userNow = readJson(userSettings);
    const workspaceNow = readJson(workspaceSettings);
    for (const key of ['logbook.llm.baseUrl', 'logbook.llm.temperature'])
      assert.equal(userNow[key], undefined, `${key} left in the user settings.json`);
    assert.deepEqual(workspaceNow, {
      'logbook.model.name': 'old-workspace-model',
      'logbook.model.promptCaching': 'off',
    });
    // The conflicting old value is kept, and the new one is what Logbook reads.
    assert.equal(userNow['logbook.llm.supportsImages'], false);
    assert.equal(userNow['logbook.model.supportsImages'], true);
    assert.equal(cfg().get('model.supportsImages'), true);

    const lines = await untilLines((all) =>
      all.some((l) => l.includes('logbook.llm.model → logbook.model.name (workspace)')) &&
      all.some((l) => l.includes('logbook.llm.supportsImages → logbook.model.supportsImages (user)'))
        ? all
        : undefined,
    );
    const moved = lines.find((l) => l.includes('logbook.llm.baseUrl → logbook.model.baseURL (user)'));
    assert.ok(moved, lines.join('\n'));
    assert.ok(
      lines.some((l) => /ignored, as the new name holds another value.*logbook\.llm\.supportsImages/.test(l)),
      lines.join('\n'),
    );
  });

  async function untilLines(done: (lines: string[]) => string[] | undefined): Promise<string[]> {
    const end = Date.now() + 10_000;
    for (;;) {
      const lines = await noticeLines();
      const ok = done(lines);
      if (ok) return ok;
      if (Date.now() > end) throw new Error(`the log lacks the notices:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});
