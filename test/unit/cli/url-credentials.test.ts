// A base URL with credentials in it (`https://user:password@host/v1`, `?api-key=...`) is as secret
// as the key: the HTTP stack and servers quote the URL in their errors, and those become events.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { jsonLines, printed, runCli, type CliResult } from './cli-runner';
import { CliFixture, filesContaining } from './fixtures';

const USER = 'logbook-user-3141';
const PASSWORD = 'hunter2-password-2718';
const QUERY_KEY = 'query-secret-1618-0339';

function assertNowhere(r: CliResult, dir: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), `printed ${secret}:\n${printed(r)}`);
    assert.deepEqual(filesContaining(dir, secret), [], `files under ${dir} hold ${secret}`);
  }
}

describe('logbook run: credentials in the base URL', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('user:password@ and ?api-key= in OPENAI_BASE_URL: the connection error recorded for the retry quotes neither', async () => {
    const env = await fx.startLlm({ name: 'url-userinfo', turns: [] });
    const url = new URL(env.OPENAI_BASE_URL!);
    url.username = USER;
    url.password = PASSWORD;
    url.search = `?api-key=${QUERY_KEY}&api-version=2024-10-21`;
    const store = join(fx.tmp(), 'conv');
    let sawRetry = false;
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'hi', '--store', store, '--json'], {
      env: { ...env, OPENAI_BASE_URL: url.toString() },
      // fetch refuses such a URL before connecting: a connection error, retried with backoff.
      // The first retry's record is all this needs; Ctrl+C then ends the run.
      onSpawn: (child) =>
        child.stdout!.on('data', (d: Buffer) => {
          if (sawRetry || !d.toString().includes('"llm_retry"')) return;
          sawRetry = true;
          child.kill('SIGINT');
        }),
    });
    assert.ok(sawRetry, printed(r));
    const retry = jsonLines(r).find((e) => e.key === 'llm_retry') as { value: { error: string } };
    assert.match(retry.value.error, /URL that includes credentials/, printed(r));
    assert.match(retry.value.error, /\[redacted/);
    assert.match(retry.value.error, /api-version=2024-10-21/, 'a parameter that is no credential stays');
    assertNowhere(r, store, [USER, PASSWORD, QUERY_KEY]);
  });
});
