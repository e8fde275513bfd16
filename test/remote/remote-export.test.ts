// `logbook export-openhands` and `logbook replay` of a conversation that ran on the real
// agent-server: the export is one the SDK's schemas accept, and imported back it is the log as
// signed; a replay outside a clone says where its files come from. Run with `npm run test:remote`.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { checkSdkFolder } from '../support/openhands-sdk-schema';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { runCli } from '../unit/cli/cli-runner';

const SCENARIO: Scenario = {
  name: 'remote-export',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        content: 'Writing it.',
        toolCalls: [
          {
            id: 'call_write',
            name: 'terminal',
            arguments: { command: 'echo exported > out.txt', security_risk: 'LOW', summary: 'write' },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Wrote it.' } }] },
    },
  ],
};

describe('export-openhands and replay of a remote conversation (the real agent-server)', function () {
  this.timeout(180_000);
  let server: AgentServer;
  let llm: ScriptedLlm;
  let root: string;
  let conv: string;
  let env: Record<string, string>;

  before(async () => {
    server = await startAgentServer();
    root = testRoot('remote-export');
    const local = join(root, 'local');
    const remoteDir = join(root, 'remote');
    mkdirSync(local);
    mkdirSync(remoteDir);
    llm = await startScriptedLlm({ scenario: SCENARIO });
    env = {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_REMOTE_KEY: server.key,
    };
    const r = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'never', 'write out.txt'],
      { env, cwd: local },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    const dirs = readdirSync(join(local, '.logbook', 'conversations'));
    conv = join(local, '.logbook', 'conversations', dirs[0]!);
  });
  after(async () => {
    await llm?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('export-openhands writes a folder the SDK schemas accept, the server parents kept', async () => {
    const out = join(root, 'exported');
    const r = await runCli(['export-openhands', conv, out], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const check = checkSdkFolder(out);
    assert.ok(check.events > 0);
    assert.deepEqual(check.problems, []);
    // The log's line, without the mark the SDK's models forbid; the import gives the mark back.
    const written = readdirSync(join(out, 'events'))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(out, 'events', f), 'utf8')) as Record<string, unknown>);
    written.forEach((e, i) => {
      assert.equal(e.parent_id ?? null, i === 0 ? null : written[i - 1]!.id);
      assert.equal('received_from' in e, false);
    });
    // Imported back, every event is as it was signed: verify passes.
    const store = join(root, 'reimported');
    const imported = await runCli(['import-openhands', out, '--store', store], { env });
    assert.equal(imported.code, 0, imported.stdout + imported.stderr);
    const verify = await runCli(['verify', store], { env });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    const back = new Map(
      readdirSync(join(store, 'segments'))
        .sort()
        .flatMap((f) => readFileSync(join(store, 'segments', f), 'utf8').split('\n'))
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l.split(' ').slice(3).join(' ')) as { id: string; received_from?: unknown })
        .map((e) => [e.id, e.received_from] as const),
    );
    for (const e of written)
      assert.equal(
        (back.get(e.id as string) as { server?: string } | undefined)?.server,
        server.url,
        'a mark lost',
      );
  });

  it('replay of a remote conversation outside a git repository says where its files come from', async () => {
    // (test/remote/remote-replay.test.ts replays one in a clone that has its base commit.)
    const r = await runCli(['replay', conv], {
      env: { ...env, GIT_CEILING_DIRECTORIES: root },
      cwd: join(root, 'local'),
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /is not a git repository: a remote conversation replays on the files of the commit/,
    );
  });
});
