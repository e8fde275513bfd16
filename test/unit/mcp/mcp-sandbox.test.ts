// Stdio MCP servers start inside the command sandbox: a real server (test/support/mcp-probe-server.mjs)
// reports what it can write, which processes it sees, its environment and its network; the same
// server with `"sandbox": false` shows what the sandbox holds back.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMcpServers } from '../../../src/host/node/mcp';
import { CommandSandbox, sandboxAvailability } from '../../../src/host/node/sandbox';
import { hubFor, probeStdio, type TestHub } from './mcp-support';

/** Calls `tool` of `server` (whatever name the hub offers it under) and returns its text. */
async function call(t: TestHub, server: string, tool: string, args: Record<string, unknown> = {}) {
  const source = t.hub.source();
  await source.prepare();
  const exposed = t.hub
    .running()
    .find((r) => r.server === server)
    ?.tools.find((n) => n.endsWith(tool));
  const spec = source.tools().find((s) => s.name === exposed);
  assert.ok(spec, `${server} offers ${tool}; log:\n${t.logs.join('\n')}`);
  const obs = await spec.execute(args, {
    ports: {} as never,
    cwd: '.',
    signal: new AbortController().signal,
  });
  return obs.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

interface Surroundings {
  seccomp?: string;
  pids: number[];
  env: Record<string, string>;
  cwd: string;
}

describe('MCP hub: stdio servers in the sandbox', function () {
  this.timeout(30_000);
  let workspace: string;
  let outsideFile: string;
  let sandbox: CommandSandbox;
  let t: TestHub | undefined;

  before(() => {
    // Never a silent skip: the suite needs the sandbox (.ci/run installs bubblewrap).
    const found = sandboxAvailability();
    assert.ok(found.available, `no sandbox can start here: ${JSON.stringify(found)}`);
  });

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'mcp-sbx-ws-'));
    outsideFile = join(mkdtempSync(join(tmpdir(), 'mcp-sbx-outside-')), 'outside.txt');
    writeFileSync(outsideFile, 'original');
    sandbox = new CommandSandbox({
      setting: 'required',
      allowedHosts: () => [],
      hostEnv: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        HOST_ONLY_TOKEN: 'host-token-value',
        PASSED_VAR: 'passed',
      },
    });
  });

  afterEach(async () => {
    await t?.hub.close();
    t = undefined;
    await sandbox.dispose();
  });

  it('writes the workspace but nothing outside it, and sees no process of the host', async () => {
    t = await hubFor({ probe: probeStdio() }, workspace, { sandbox });
    assert.equal(
      await call(t, 'probe', 'write_file', { path: join(workspace, 'inside.txt'), text: 'in' }),
      'wrote',
    );
    assert.equal(readFileSync(join(workspace, 'inside.txt'), 'utf8'), 'in');
    assert.match(await call(t, 'probe', 'write_file', { path: outsideFile, text: 'changed' }), /^failed: /);
    assert.equal(readFileSync(outsideFile, 'utf8'), 'original');

    const seen = JSON.parse(await call(t, 'probe', 'surroundings')) as Surroundings;
    assert.ok(!seen.pids.includes(process.pid), `the test's own pid ${process.pid} is not visible`);
    assert.ok(seen.pids.length < 10, `only the sandbox's few processes: ${seen.pids.join(' ')}`);
    assert.equal(seen.cwd, workspace);
    assert.equal(seen.seccomp, '2', 'the Unix socket filter holds the server too');
    assert.ok(
      t.logs.some((l) => /"probe" started with 3 tools, in the sandbox/.test(l)),
      t.logs.join('\n'),
    );
  });

  it('gets an environment built from scratch: PATH, HOME, the passed names and its own env', async () => {
    t = await hubFor({ probe: probeStdio({ env: { OWN_VAR: 'mine' } }) }, workspace, {
      sandbox,
      passEnvironment: ['PASSED_VAR'],
    });
    const { env } = JSON.parse(await call(t, 'probe', 'surroundings')) as Surroundings;
    assert.equal(env['OWN_VAR'], 'mine');
    assert.equal(env['PASSED_VAR'], 'passed');
    assert.equal(env['PATH'], process.env['PATH']);
    assert.equal(env['HOME'], process.env['HOME']);
    assert.equal(env['HOST_ONLY_TOKEN'], undefined, 'a host variable nobody passed stays out');
    assert.match(env['HTTP_PROXY'] ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('"sandbox": false runs the same server unsandboxed: it writes outside and sees the host', async () => {
    t = await hubFor({ probe: probeStdio({ sandbox: false }) }, workspace, { sandbox });
    assert.equal(await call(t, 'probe', 'write_file', { path: outsideFile, text: 'changed' }), 'wrote');
    assert.equal(readFileSync(outsideFile, 'utf8'), 'changed');
    const seen = JSON.parse(await call(t, 'probe', 'surroundings')) as Surroundings;
    assert.ok(seen.pids.includes(process.pid));
    assert.ok(
      t.logs.some((l) => /"probe" runs unsandboxed \("sandbox": false in its entry\)/.test(l)),
      t.logs.join('\n'),
    );
    assert.ok(!t.logs.some((l) => /in the sandbox/.test(l)));
  });

  it('reaches the hosts of its own "allowedHosts"; another server is turned away, and the log says so', async () => {
    const web = http.createServer((_req, res) => res.end('hello from the host'));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
    try {
      t = await hubFor(
        { open: probeStdio({ allowedHosts: ['127.0.0.1'] }), closed: probeStdio() },
        workspace,
        { sandbox },
      );
      assert.equal(await call(t, 'open', 'fetch', { url }), '200 hello from the host');
      assert.match(
        await call(t, 'closed', 'fetch', { url }),
        /^403 .*blocked network access to 127\.0\.0\.1/,
      );
      assert.ok(
        t.logs.some((l) => /"closed": the sandbox blocked network access to 127\.0\.0\.1/.test(l)),
        t.logs.join('\n'),
      );
      assert.deepEqual(sandbox.takeDeniedHosts(), [], "a server's hosts are not the commands'");
    } finally {
      web.close();
    }
  });
});

describe('MCP hub: a sandbox that cannot start', function () {
  this.timeout(30_000);
  const missingBwrap = join(tmpdir(), 'no-such-folder', 'bwrap');

  it('"required": the server does not start, and the notice says why', async () => {
    const sandbox = new CommandSandbox({ setting: 'required', allowedHosts: () => [], bwrap: missingBwrap });
    const t = await hubFor({ probe: probeStdio() }, mkdtempSync(join(tmpdir(), 'mcp-sbx-ws-')), { sandbox });
    try {
      const source = t.hub.source();
      await source.prepare();
      assert.deepEqual(t.hub.running(), []);
      const notices = source.takeNotices().map((n) => n.message);
      assert.ok(
        notices.some((m) => /"probe" could not start: logbook.sandbox.mode is "required"/.test(m)),
        notices.join('\n'),
      );
    } finally {
      await t.hub.close();
    }
  });

  it('"auto": the server runs unsandboxed, and the log says why', async () => {
    const sandbox = new CommandSandbox({ setting: 'auto', allowedHosts: () => [], bwrap: missingBwrap });
    const t = await hubFor({ probe: probeStdio() }, mkdtempSync(join(tmpdir(), 'mcp-sbx-ws-')), { sandbox });
    try {
      await t.hub.source().prepare();
      assert.deepEqual(
        t.hub.running().map((r) => r.server),
        ['probe'],
      );
      assert.ok(
        t.logs.some((l) => /"probe" runs unsandboxed: .*bubblewrap \(bwrap\) is not installed/.test(l)),
        t.logs.join('\n'),
      );
    } finally {
      await t.hub.close();
    }
  });
});

describe('MCP configuration: "sandbox" and "allowedHosts"', () => {
  it('takes a boolean and a list of host names, and leaves out an entry with anything else', () => {
    const { servers, problems } = parseMcpServers({
      mcpServers: {
        ok: { command: 'srv', sandbox: false, allowedHosts: ['api.example.com', '*.example.org'] },
        word: { command: 'srv', sandbox: 'no' },
        url: { command: 'srv', allowedHosts: ['https://api.example.com/v1'] },
        notList: { command: 'srv', allowedHosts: 'api.example.com' },
      },
    });
    assert.deepEqual([...servers.keys()], ['ok']);
    const ok = servers.get('ok') as { sandbox?: boolean; allowedHosts?: string[] };
    assert.equal(ok.sandbox, false);
    assert.deepEqual(ok.allowedHosts, ['api.example.com', '*.example.org']);
    assert.equal(problems.length, 3);
    assert.match(problems[0]!, /"word" is left out: sandbox: .*boolean/);
    assert.match(problems[1]!, /"url" is left out: allowedHosts\.0: a host is a name like/);
    assert.match(problems[2]!, /"notList" is left out: allowedHosts: .*array/);
  });
});
