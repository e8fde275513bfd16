// `export-openhands` of a conversation whose log lost events: the export is read by others as the
// whole conversation, so a silent hole (exit 0, fewer events) must not pass; once the user accepts
// the loss (`repair --accept-lost-events`), what is left exports with the loss recorded in it.
import * as assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { userMessageFields } from '../../../src/core/agent/user-message';
import { createEvent, type Event } from '../../../src/core/events';
import { identityFromPem, openSignedStore } from '../../../src/core/signing';
import { cliHeadFile } from '../../../src/host/node/config-dir';
import { newSessionInfo, writeSessionInfo } from '../../../src/host/node/cli/session-file';
import { cleanupTmp, tmpDir } from '../log/helpers';
import { runCli, testConfigDir, testSigningKey } from './cli-runner';

const env = (): { XDG_CONFIG_HOME: string } => ({ XDG_CONFIG_HOME: testConfigDir() });

/** A signed conversation of `n` user messages spread over many small segment files. */
async function conversationInSegments(n: number): Promise<string> {
  const dir = tmpDir('lost-export');
  const id = crypto.randomUUID();
  writeSessionInfo(
    dir,
    newSessionInfo({ id, workspace: dir, confirmation: 'never', max_iterations: null, model: null }),
  );
  const store = await openSignedStore(dir, {
    identity: identityFromPem(fs.readFileSync(testSigningKey(), 'utf8')),
    conversationId: id,
    headFile: cliHeadFile(env(), dir),
    segmentBytes: 4096,
  });
  for (let i = 0; i < n; i++) {
    const text = `message number ${i} `.repeat(5);
    await store.append(
      createEvent('MessageEvent', userMessageFields(text, {}, [])) as Event as StoredConversationEvent,
    );
    if (i % 20 === 19) await store.flush();
  }
  await store.close();
  return dir;
}

function segments(dir: string): string[] {
  return fs
    .readdirSync(path.join(dir, 'segments'))
    .filter((f) => f.endsWith('.log'))
    .sort();
}

describe('logbook export-openhands of a log that lost events', function () {
  this.timeout(120_000);
  after(cleanupTmp);

  it('a lost last segment: nothing exported, the loss named, exit non-zero; after accepting it, the rest exports', async () => {
    const dir = await conversationInSegments(120);
    const files = segments(dir);
    assert.ok(files.length > 3, `several segments (${files.length})`);
    fs.rmSync(path.join(dir, 'segments', files.at(-1)!));
    const out = path.join(tmpDir('lost-export-out'), 'export');

    const refused = await runCli(['export-openhands', dir, out], { env: env() });
    assert.notEqual(refused.code, 0, refused.stdout);
    assert.match(refused.stderr, /Not exported: .*events? \(#\d+/);
    assert.match(refused.stderr, /--accept-lost-events/);
    assert.ok(!fs.existsSync(out), 'no partial export left behind');

    const repaired = await runCli(['repair', dir, '--accept-lost-events'], { env: env() });
    assert.equal(repaired.code, 0, repaired.stderr);
    const exported = await runCli(['export-openhands', dir, out], { env: env() });
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /Exported \d+ events/);
  });
});
