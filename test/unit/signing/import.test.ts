// An imported OpenHands conversation is unsigned up to the import, recorded as an event and signed
// from there on: verify says so, and still catches an imported event changed afterwards.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IMPORTED_FROM_KEY, importOpenHands } from '../../../src/core/agent/import-openhands';
import { encodeRecord } from '../../../src/core/log/record-format';
import { identityFromPem, newSigningKeyPem, verifyConversation } from '../../../src/core/signing';
import { cleanupTmp, segmentPath, tmpDir } from '../log/helpers';

const V0_FILE = path.join(__dirname, '..', 'events', 'fixtures', 'openhands-v0-trajectory.json');
const identity = identityFromPem(newSigningKeyPem());

function recordJsons(dir: string): string[] {
  return fs
    .readFileSync(segmentPath(dir), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split(' ').slice(3).join(' '));
}

describe('signing: imports', () => {
  after(cleanupTmp);

  it('marks the imported events, records the import as a signed event, and catches later changes', async () => {
    const dir = path.join(tmpDir('import'), 'conv');
    const { count, signaturesKept } = await importOpenHands(V0_FILE, dir, { identity });
    assert.equal(signaturesKept, false);
    const jsons = recordJsons(dir);
    assert.equal(jsons.length, count + 1);
    const last = JSON.parse(jsons.at(-1)!) as { kind: string; key: string; value: { events: number } };
    assert.deepEqual(
      [last.kind, last.key, last.value.events],
      ['ConversationStateUpdateEvent', IMPORTED_FROM_KEY, count],
    );

    const r = verifyConversation(dir);
    assert.equal(r.status, 'verified', JSON.stringify(r.firstBad));
    assert.equal(r.imported, count);
    assert.equal(r.verified, count + 1);
    assert.deepEqual(r.signers, [identity.did]);

    const at = 3;
    jsons[at] = jsons[at]!.replace(/"timestamp":"[^"]*"/, '"timestamp":"2000-01-01T00:00:00"');
    fs.writeFileSync(segmentPath(dir), Buffer.concat(jsons.map((j, i) => encodeRecord(i, j))));
    const bad = verifyConversation(dir);
    assert.equal(bad.status, 'broken');
    assert.equal(bad.firstBad?.index, at);
    assert.equal(bad.firstBad?.reason, 'content changed');
  });
});
