// The hostile sandbox suite proves something only if each of its cases fails without the
// sandbox: this runs that suite with the sandbox switched off and expects every case to fail.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

describe('the hostile sandbox suite without a sandbox', function () {
  this.timeout(180_000);

  it('fails every one of its cases', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
        '--import=tsx',
        '--reporter',
        'json',
        '--timeout',
        '60000',
        join(__dirname, 'sandbox.test.ts'),
      ],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, LOGBOOK_TEST_SANDBOX: 'off', LOGBOOK_TEST_STATS: '' },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const json = run.stdout.slice(run.stdout.indexOf('{'));
    const report = JSON.parse(json) as {
      stats: { tests: number; passes: number; failures: number };
      passes: { fullTitle: string }[];
    };
    assert.ok(report.stats.tests >= 30, `only ${report.stats.tests} cases ran`);
    assert.deepEqual(
      report.passes.map((p) => p.fullTitle),
      [],
      'these cases pass without the sandbox, so they do not test it',
    );
    assert.equal(report.stats.failures, report.stats.tests);
  });
});
