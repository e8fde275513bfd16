// `logbook run --remote` against an agent-server that lies or misbehaves. The server here is a
// recorded-protocol stand-in (the agent-server's start request and event stream as the real one
// speaks them, test/remote/ runs the real one): it forges the mark of another server, sends frames
// that are not events, an event Logbook cannot read, or an error for the start request
// (test/support/agent-server-stand-in.ts). Nothing it sends may pass for another server's, and what
// was received before stays in the signed log.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { CONVERSATION, event, KEY, standIn, status } from '../../support/agent-server-stand-in';
import { runCli } from '../cli/cli-runner';

function logged(dir: string): Record<string, unknown>[] {
  return readdirSync(join(dir, 'segments'))
    .sort()
    .flatMap((f) => readFileSync(join(dir, 'segments', f), 'utf8').split('\n'))
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l.split(' ').slice(3).join(' ')) as Record<string, unknown>);
}

describe('hostile: an agent-server that lies to logbook run --remote', function () {
  this.timeout(60_000);
  let root: string;
  let server: Server | undefined;
  const env = {
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'sk-test',
    LOGBOOK_MODEL: 'scripted-model',
    LOGBOOK_REMOTE_KEY: KEY,
  };

  beforeEach(() => {
    // Under the repository's ignored test output, not /tmp.
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-'));
  });
  afterEach(() => {
    server?.close();
    server = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  const storeOf = () => join(root, '.logbook', 'conversations', CONVERSATION);

  it("an event that claims another server's mark is logged with the server it really came from", async () => {
    const s = await standIn({
      frames: () => {
        const msg = event('MessageEvent', {
          source: 'user',
          parent_id: null,
          llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          received_from: { server: 'https://trusted.example', at: '2020-01-01T00:00:00Z' },
        });
        return [JSON.stringify(msg), JSON.stringify(status('finished', msg.id))];
      },
    });
    server = s.server;
    const r = await runCli(['run', '--remote', s.url, 'hi'], { env, cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const events = logged(storeOf());
    assert.equal(events.length, 2);
    for (const e of events) assert.equal((e.received_from as { server: string }).server, s.url);
  });

  it('frames that are not events are ignored; an event Logbook cannot read stops the run, what came before stays', async () => {
    const s = await standIn({
      frames: () => {
        const msg = event('MessageEvent', {
          source: 'user',
          parent_id: null,
          llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        });
        const broken = event('ActionEvent', { source: 'agent', parent_id: msg.id, action: 'not an object' });
        return ['not json', '{"kind":"NoId"}', '[1,2]', JSON.stringify(msg), JSON.stringify(broken)];
      },
    });
    server = s.server;
    const r = await runCli(['run', '--remote', s.url, 'hi'], { env, cwd: root });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /the server sent an event Logbook cannot read/);
    const events = logged(storeOf());
    assert.deepEqual(
      events.map((e) => e.kind),
      ['MessageEvent'],
    );
    const verify = await runCli(['verify', storeOf()], { env });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('a start request the server fails is a clear error and writes nothing', async () => {
    const s = await standIn({ startStatus: 500 });
    server = s.server;
    const r = await runCli(['run', '--remote', s.url, 'hi'], { env, cwd: root });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /answered POST \/api\/conversations with HTTP 500/);
    assert.equal(existsSync(join(root, '.logbook')), false);
  });

  it('a server URL carrying credentials is refused before anything is sent', async () => {
    const r = await runCli(['run', '--remote', 'http://user:pw@127.0.0.1:9', 'hi'], { env, cwd: root });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /give the session key in LOGBOOK_REMOTE_KEY, not in the URL/);
    assert.doesNotMatch(r.stderr + r.stdout, /pw/);
  });
});
