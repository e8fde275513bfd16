// `logbook doctor` against real parts: the scripted model server, a real MCP server, the run's own
// conversations and checkpoint store, and the clean-up of checkpoints made old by their file times.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli, testSigningKey } from './cli-runner';
import { CliFixture, onlyConversationDir, SECRET_KEY } from './fixtures';
import { identityFromPem } from '../../../src/core/signing';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DiagnosticsReport } from '../../../src/core/diagnostics/report';

const probeServer = join(__dirname, '..', '..', 'support', 'mcp-probe-server.mjs');

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function rows(report: DiagnosticsReport, id: string) {
  const s = report.sections.find((x) => x.id === id);
  assert.ok(s, `section ${id}`);
  return s.rows;
}

describe('logbook doctor', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const editScenario = {
    name: 'cli-doctor',
    turns: [
      {
        match: { lastRole: 'user' as const },
        reply: {
          toolCalls: [
            {
              id: 'call_w',
              name: 'file_editor',
              arguments: {
                command: 'create',
                path: 'note.txt',
                file_text: 'hello\n',
                security_risk: 'LOW',
                summary: 'note',
              },
            },
          ],
        },
      },
      { match: { lastRole: 'tool' as const }, reply: { content: 'Done.' } },
    ],
  };

  /** A workspace with one finished conversation and its checkpoints, in a store of the test's own. */
  async function workspaceWithConversation() {
    const env = await fx.startLlm(editScenario);
    const ws = fx.tmp();
    const checkpoints = fx.tmp('logbook-doctor-checkpoints-');
    const all = { ...env, LOGBOOK_CHECKPOINTS_DIR: checkpoints };
    const run = await runCli(['run', '--workspace', ws, '--task', 'write a note'], { env: all });
    assert.equal(run.code, 0, printed(run));
    return { ws, env: all, checkpoints, conversation: onlyConversationDir(ws) };
  }

  it('shows the endpoint reachable, the key set but never shown, the model, the identity and the storage', async () => {
    const { ws, env, conversation } = await workspaceWithConversation();
    const r = await runCli(['doctor', '--workspace', ws, '--json'], { env });
    assert.equal(r.code, 0, printed(r));
    assert.ok(!r.stdout.includes(SECRET_KEY) && !r.stderr.includes(SECRET_KEY), 'the key is never printed');
    const report = JSON.parse(r.stdout) as DiagnosticsReport;
    assert.deepEqual(
      report.sections.map((s) => s.id),
      ['sandbox', 'model', 'mcp', 'signing', 'storage'],
    );
    const model = rows(report, 'model');
    assert.match(model[0]!.value, /reachable \(HTTP 200\)/);
    assert.equal(model[0]!.status, 'ok');
    assert.deepEqual(model[1], { label: 'API key', value: 'set (never shown)', status: 'ok' });
    assert.match(model[2]!.value, /^scripted-model: offered by the endpoint$/);
    const did = identityFromPem(readFileSync(testSigningKey(), 'utf8')).did;
    assert.equal(rows(report, 'signing')[0]!.value, did);
    assert.ok(!r.stdout.includes('PRIVATE KEY'));
    const storage = rows(report, 'storage');
    const id = conversation.split('/').pop()!;
    assert.ok(
      storage.some((row) => row.label === id && /\d+(\.\d)? (B|KB|MB)$/.test(row.value)),
      JSON.stringify(storage),
    );
    assert.match(
      storage.find((row) => row.label === 'Checkpoints')!.value,
      /in 1 store\(s\), for 1 conversation\(s\)/,
    );

    const text = await runCli(['doctor', '--workspace', ws], { env });
    assert.match(text.stdout, /^Model: ok$/m);
    assert.match(text.stdout, /^Signing identity: ok$/m);
    assert.match(text.stdout, new RegExp(`Identity: ${did}`));
  });

  it('says whose conversations and checkpoints it counts, so the counts agree', async () => {
    const { env } = await workspaceWithConversation();
    // Another folder: none of its own, while the store holds the first workspace's checkpoints.
    const other = fx.tmp();
    const r = await runCli(['doctor', '--workspace', other, '--json'], { env });
    const storage = rows(JSON.parse(r.stdout) as DiagnosticsReport, 'storage');
    assert.deepEqual(
      storage.find((row) => row.label.startsWith('Conversations')),
      { label: 'Conversations in this workspace', value: 'none', status: 'info' },
      JSON.stringify(storage),
    );
    assert.match(
      storage.find((row) => row.label === 'Checkpoints')!.value,
      /in 1 store\(s\), for 1 conversation\(s\) of every workspace$/,
    );
  });

  it('says when the endpoint cannot be reached or does not offer the model, and exits 1 on an error', async () => {
    const ws = fx.tmp();
    const port = await closedPort();
    const down = await runCli(['doctor', '--workspace', ws], {
      env: { LOGBOOK_BASE_URL: `http://127.0.0.1:${port}/v1`, LOGBOOK_API_KEY: SECRET_KEY },
    });
    assert.equal(down.code, 1, printed(down));
    assert.match(down.stdout, /^Model: not working$/m);
    assert.match(
      down.stdout,
      new RegExp(`Endpoint: http://127\\.0\\.0\\.1:${port}/v1: not reachable \\(ECONNREFUSED\\)`),
    );
    assert.match(down.stdout, /fix: Start the local model server, or correct LOGBOOK_BASE_URL\./);
    assert.ok(!down.stdout.includes(SECRET_KEY));

    const env = await fx.startLlm(editScenario);
    const other = await runCli(['doctor', '--workspace', ws, '--json'], {
      env: { ...env, LOGBOOK_MODEL: 'gpt-9' },
    });
    const model = rows(JSON.parse(other.stdout) as DiagnosticsReport, 'model')[2]!;
    assert.equal(model.status, 'warning');
    assert.match(model.value, /gpt-9: not among the 1 models the endpoint lists/);
    assert.match(model.fix ?? '', /scripted-model/);
  });

  it('starts the MCP servers of --mcp-config for the check: running with tools, or why one failed', async () => {
    const ws = fx.tmp();
    const file = join(ws, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          probe: { command: process.execPath, args: [probeServer] },
          broken: { command: join(ws, 'no-such-server') },
        },
      }),
    );
    const env = await fx.startLlm(editScenario);
    const r = await runCli(
      ['doctor', '--workspace', ws, '--mcp-config', file, '--sandbox', 'off', '--json'],
      { env },
    );
    const mcp = rows(JSON.parse(r.stdout) as DiagnosticsReport, 'mcp');
    const probe = mcp.find((row) => row.label === 'probe (stdio)');
    const broken = mcp.find((row) => row.label === 'broken (stdio)');
    assert.deepEqual(
      probe,
      { label: 'probe (stdio)', value: 'running, 3 tool(s)', status: 'ok' },
      printed(r),
    );
    assert.equal(broken?.status, 'error');
    assert.match(broken?.value ?? '', /^failed: /);
    assert.equal(r.code, 1, 'a failed server is an error');
  });

  it('cleans up old checkpoints only after naming them and being told yes; the conversation stays', async () => {
    const { ws, env, checkpoints, conversation } = await workspaceWithConversation();
    const id = conversation.split('/').pop()!;
    const [store] = readdirSync(checkpoints);
    const ref = join(checkpoints, store!, 'git', 'refs', 'logbook', 'conversations', id);
    assert.ok(existsSync(ref));

    const fresh = await runCli(['doctor', '--workspace', ws, '--clean-checkpoints', '--yes'], { env });
    assert.match(fresh.stdout, /No old checkpoints to clean up\./);
    assert.ok(existsSync(ref), 'checkpoints younger than 30 days stay');

    const old = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    utimesSync(ref, old, old);
    const unasked = await runCli(['doctor', '--workspace', ws, '--clean-checkpoints'], { env });
    assert.equal(unasked.code, 1, printed(unasked));
    assert.match(
      unasked.stdout,
      new RegExp(`the checkpoints of ${id} \\(its newest checkpoint is 40 days old`),
    );
    assert.match(unasked.stderr, /add --yes/);
    assert.ok(existsSync(ref), 'nothing goes without an answer');

    const yes = await runCli(['doctor', '--workspace', ws, '--clean-checkpoints', '--yes'], { env });
    assert.match(yes.stdout, /Cleaning up deletes:/);
    assert.match(yes.stdout, /Released the checkpoints of 1 conversation\(s\); .* freed\./);
    assert.ok(!existsSync(ref), 'the conversation no longer holds checkpoints');
    assert.ok(existsSync(join(conversation, 'segments')), 'the conversation itself stays');
    const show = await runCli(['show', conversation], { env });
    assert.equal(show.code, 0, printed(show));
  });

  it('refuses a bad --older-than', async () => {
    const r = await runCli(['doctor', '--older-than', 'soon'], {});
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--older-than takes a number of days, not "soon"/);
  });
});
