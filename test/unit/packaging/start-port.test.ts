// `npm start` on a port already taken says so before building anything, and how to pick another.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

describe('npm start on a port in use', function () {
  this.timeout(60_000);
  let taken: Server;
  let port = 0;
  before(async () => {
    taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    port = (taken.address() as { port: number }).port;
  });
  after(() => taken.close());

  it('names the port and the way out (LOGBOOK_PORT), and exits 1', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
      env: { ...process.env, LOGBOOK_PORT: String(port) },
      encoding: 'utf8',
      timeout: 50_000,
    });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stderr, new RegExp(`127\\.0\\.0\\.1:${port}.*in use`));
    assert.match(run.stderr, new RegExp(`LOGBOOK_PORT=${port + 1} npm start`));
    assert.doesNotMatch(run.stdout, /Building the extension/, 'nothing is built first');
  });
});
