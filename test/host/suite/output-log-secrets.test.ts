// The Output channel and the log file behind it never hold a secret the window knows: every line
// Logbook logs goes through the redactor the events use (the window's OPENAI_API_KEY here, set by
// test/host/run.mjs, and a key stored in SecretStorage).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { logbook, untilValue } from './helpers';

const WINDOW_KEY = 'sk-host-window-env-1a2b3c4d-KEEP-OUT';
const STORED_KEY = 'sk-host-log-stored-77aa88bb-KEEP-OUT';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('Output channel: secrets redacted', function () {
  this.timeout(30_000);
  afterEach(() => vscode.commands.executeCommand('logbook.setApiKey', ''));

  it('logs lines and errors with the window’s and the stored key replaced by a marker', async () => {
    const api = await logbook();
    await vscode.commands.executeCommand('logbook.setApiKey', STORED_KEY);
    await untilValue('both keys known', () => {
      const values = api.service.knownSecrets.map((s) => s.value);
      return values.includes(WINDOW_KEY) && values.includes(STORED_KEY) ? true : undefined;
    });
    const marker = `redaction-probe-${Date.now()}`;
    api.log.info(`${marker} calling with ${WINDOW_KEY}`);
    api.log.error(new Error(`${marker} failed with ${STORED_KEY}`));
    const root = dirname(api.logUri.fsPath);
    const text = await untilValue('the probe in a log file', () => {
      const hit = filesUnder(root)
        .map((f) => readFileSync(f, 'utf8'))
        .find((t) => t.includes(marker) && t.split(marker).length > 2);
      return hit;
    });
    const lines = text.split('\n').filter((l) => l.includes(marker));
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /calling with \[redacted API key\]/);
    assert.match(lines[1]!, /failed with \[redacted API key\]/);
    assert.ok(!text.includes(WINDOW_KEY) && !text.includes(STORED_KEY), 'no key in the log file');
  });
});
