// `logbook run` signs every event by default, and `logbook verify` checks them end to end.
import * as assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from '../../../src/core/log/record-format';
import { loadScenarioFile } from '../../support/llm-server';
import { cliHeadFile } from '../../../src/host/node/config-dir';
import { printed, runCli, testConfigDir } from './cli-runner';
import { CliFixture } from './fixtures';

const multiStepFile = join(__dirname, '..', '..', 'fixtures', 'scenarios', 'create-show-finish.json');

function runArgs(ws: string, store: string): string[] {
  return [
    'run',
    '--workspace',
    ws,
    '--task',
    'Write a greeting to hello.txt',
    '--confirm',
    'never',
    '--store',
    store,
  ];
}

/** Rewrites record `index` with `edit`, recomputing its length and checksum as an attacker would. */
function tamper(store: string, find: string, edit: (json: string) => string): { index: number; id: string } {
  const file = join(store, 'segments', '000001.log');
  const lines = readFileSync(file, 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(find));
  assert.ok(index >= 0, `no record holds ${find}`);
  const json = edit(lines[index]!.split(' ').slice(3).join(' '));
  const body = `${index} ${Buffer.byteLength(json)} ${json}`;
  lines[index] = `${(crc32(body) >>> 0).toString(16).padStart(8, '0')} ${body}`;
  writeFileSync(file, lines.join('\n'));
  return { index, id: (JSON.parse(json) as { id: string }).id };
}

describe('logbook verify', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('verifies a conversation run signed, and names the event rewritten on disk', async () => {
    const env = await fx.startLlm(await loadScenarioFile(multiStepFile));
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(runArgs(fx.tmp(), store), { env });
    assert.equal(r.code, 0, printed(r));
    const ok = await runCli(['verify', store]);
    assert.equal(ok.code, 0, printed(ok));
    assert.match(
      ok.stdout,
      /^\d+ events verified, signed by you; none missing \(checked against the head kept outside the folder\)\n$/,
    );
    const json = await runCli(['verify', store, '--json']);
    const result = JSON.parse(json.stdout) as { status: string; signers: string[] };
    assert.equal(result.status, 'verified');
    // The conversation names who signed it, in show too.
    const show = await runCli(['show', store]);
    assert.match(show.stdout, new RegExp(`\n  signed by  ${result.signers[0]}\n`));
    const shown = JSON.parse((await runCli(['show', store, '--json'])).stdout) as { signers: string[] };
    assert.deepEqual(shown.signers, result.signers);

    const { index, id } = tamper(store, 'hello logbook', (j) => j.replace('hello logbook', 'hello attacker'));
    const bad = await runCli(['verify', store]);
    assert.equal(bad.code, 1, printed(bad));
    assert.match(bad.stdout, new RegExp(`broken at event ${index} \\(${id}\\): content changed`));
    assert.match(bad.stderr, new RegExp(`event ${index} .*content changed`));
  });

  it('says "unsigned" for a conversation written without signatures', async () => {
    const env = await fx.startLlm(await loadScenarioFile(multiStepFile));
    const store = join(fx.tmp(), 'conv');
    assert.equal((await runCli(runArgs(fx.tmp(), store), { env })).code, 0);
    // As a conversation written before signing looks: no signatures, and no head kept outside.
    rmSync(join(store, 'signatures.log'));
    rmSync(cliHeadFile({ XDG_CONFIG_HOME: testConfigDir() }, store));
    const r = await runCli(['verify', store]);
    assert.equal(r.code, 3, printed(r));
    assert.match(
      r.stdout,
      /^\d+ events, unsigned: the conversation was written without signatures; completeness cannot be proven/,
    );
  });

  it('creates a missing key once (0600), and refuses a wrong-type key without appending anything', async () => {
    const env = await fx.startLlm(await loadScenarioFile(multiStepFile));
    const keyFile = join(fx.tmp(), 'keys', 'signing-key.pem');
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(runArgs(fx.tmp(), store), { env: { ...env, LOGBOOK_SIGNING_KEY: keyFile } });
    assert.equal(r.code, 0, printed(r));
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.match(r.stderr, /Created the signing key/);
    const pem = readFileSync(keyFile, 'utf8');
    assert.doesNotMatch(readFileSync(join(store, 'segments', '000001.log'), 'utf8'), /PRIVATE KEY/);

    const ecKey = join(fx.tmp(), 'ec.pem');
    const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    writeFileSync(ecKey, ec.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    const store2 = join(fx.tmp(), 'conv2');
    const refused = await runCli(runArgs(fx.tmp(), store2), { env: { ...env, LOGBOOK_SIGNING_KEY: ecKey } });
    assert.equal(refused.code, 1, printed(refused));
    assert.match(refused.stderr, /is a ec key; Logbook signs with Ed25519 keys only/);
    assert.equal(existsSync(join(store2, 'segments')), false);

    const corrupt = join(fx.tmp(), 'corrupt.pem');
    writeFileSync(corrupt, 'not a key', { mode: 0o600 });
    const refused2 = await runCli(runArgs(fx.tmp(), store2), {
      env: { ...env, LOGBOOK_SIGNING_KEY: corrupt },
    });
    assert.equal(refused2.code, 1, printed(refused2));
    assert.match(refused2.stderr, /could not be read as a PEM private key/);
    assert.equal(existsSync(join(store2, 'segments')), false);

    // The same key again: not replaced.
    const env2 = await fx.startLlm(await loadScenarioFile(multiStepFile));
    const again = await runCli(runArgs(fx.tmp(), join(fx.tmp(), 'conv3')), {
      env: { ...env2, LOGBOOK_SIGNING_KEY: keyFile },
    });
    assert.equal(again.code, 0, printed(again));
    assert.equal(readFileSync(keyFile, 'utf8'), pem);
    assert.doesNotMatch(again.stderr, /Created the signing key/);
  });
});
