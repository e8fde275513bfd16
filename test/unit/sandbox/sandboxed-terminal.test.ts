// The agent's shell (the Node port) inside the sandbox: the network, the mode switch, Ctrl+C,
// and what the probe says where no sandbox can start.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeTerminalPort } from '../../../src/host/node/ports/node-terminal-port';
import {
  CommandSandbox,
  type CommandSandboxOptions,
  probeSandbox,
  SandboxRequiredError,
} from '../../../src/host/node/sandbox';

describe('sandbox: the agent shell inside it', function () {
  this.timeout(30_000);
  let origin: http.Server;
  let port: number;
  let ws: string;
  const cleanup: (() => unknown)[] = [];

  before(async () => {
    origin = http.createServer((req, res) => res.end(`origin saw ${req.url}`));
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    port = (origin.address() as AddressInfo).port;
  });
  after(() => origin.close());
  beforeEach(() => {
    ws = mkdtempSync(join(tmpdir(), 'logbook-sbx-ws-'));
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
    rmSync(ws, { recursive: true, force: true });
  });

  function shell(
    allowed: string[],
    readOnly: () => boolean = () => false,
    socat?: null,
    more: Partial<CommandSandboxOptions> = {},
  ): NodeTerminalPort {
    const sandbox = new CommandSandbox({
      setting: 'required',
      allowedHosts: () => allowed,
      ...(socat === null ? { socat } : {}),
      ...more,
    });
    const t = new NodeTerminalPort({ cwd: ws, sandbox: { sandbox, workspaces: [ws], readOnly } });
    cleanup.push(
      () => t.dispose(),
      () => sandbox.dispose(),
    );
    return t;
  }

  /** A request through the sandbox's proxy, as any proxy-aware program makes it. */
  const viaProxy = (path: string) =>
    `node -e "require('http').get({host:'127.0.0.1',port:3128,path:'http://127.0.0.1:${port}${path}'},r=>{let b='';r.on('data',d=>b+=d);r.on('end',()=>console.log(r.statusCode,b))})"`;

  it('reaches an allowed host through the proxy, and names a host it turned away', async () => {
    const open = await shell(['127.0.0.1']).run(viaProxy('/ok'), { timeoutMs: 15_000 });
    assert.match(open.output, /200 origin saw \/ok/);
    const closed = await shell([]).run(viaProxy('/no'), { timeoutMs: 15_000 });
    assert.match(closed.output, /^403 /m);
    assert.match(closed.output, /sandbox blocked network access to 127\.0\.0\.1/);
    assert.doesNotMatch(closed.output, /origin saw/);
  });

  it("a delegated agent's narrowed hosts: only what both lists allow reaches through", async () => {
    const parent = new CommandSandbox({ setting: 'required', allowedHosts: () => ['127.0.0.1'] });
    const run = async (sandbox: CommandSandbox) => {
      const t = new NodeTerminalPort({
        cwd: ws,
        sandbox: { sandbox, workspaces: [ws], readOnly: () => false },
      });
      cleanup.push(
        () => t.dispose(),
        () => sandbox.dispose(),
      );
      return (await t.run(viaProxy('/child'), { timeoutMs: 15_000 })).output;
    };
    cleanup.push(() => parent.dispose());
    // A child whose grant names another host: the user's 127.0.0.1 is not its to reach.
    const narrowed = await run(parent.withHostsWithin(['registry.npmjs.org']));
    assert.match(narrowed, /^403 /m);
    assert.doesNotMatch(narrowed, /origin saw/);
    // One whose grant names it reaches it; naming a host is no way past the user's list.
    assert.match(await run(parent.withHostsWithin(['127.0.0.1'])), /200 origin saw \/child/);
    const outside = new CommandSandbox({ setting: 'required', allowedHosts: () => [] });
    cleanup.push(() => outside.dispose());
    assert.match(await run(outside.withHostsWithin(['127.0.0.1'])), /^403 /m);
  });

  it('bridges with Node where the machine has no socat', async () => {
    const open = await shell(['127.0.0.1'], () => false, null).run(viaProxy('/node'), { timeoutMs: 15_000 });
    assert.match(open.output, /200 origin saw \/node/);
  });

  it("asks about no host for a tool's update check: npm test runs without asking for the registry", async () => {
    const asked: string[] = [];
    // A home npm has never checked for updates from, so the check is due (inside the workspace: writable).
    const home = join(ws, 'home');
    mkdirSync(home);
    const t = shell([], undefined, undefined, {
      askHost: async (host) => (asked.push(host), false),
      hostEnv: { ...process.env, HOME: home },
    });
    writeFileSync(join(ws, 'package.json'), '{"name":"p","version":"1.0.0","scripts":{"test":"node -e 1"}}');
    const r = await t.run('npm test', { timeoutMs: 20_000 });
    assert.equal(r.exitCode, 0, r.output);
    assert.deepEqual(asked, [], 'no host was asked about');
  });

  it('has no other way out: a direct connection to the host finds nothing', async () => {
    const t = shell(['127.0.0.1']);
    const r = await t.run(
      `node -e "require('http').get('http://127.0.0.1:${port}/direct',r=>console.log('reached',r.statusCode)).on('error',e=>console.log('failed',e.code))"`,
      { timeoutMs: 15_000 },
    );
    assert.match(r.output, /failed ECONNREFUSED/);
  });

  it('starts a new shell, read-only, when the conversation switches to plan mode', async () => {
    let plan = false;
    const t = shell([], () => plan);
    await t.run('cd sub 2>/dev/null; echo one > a.txt', { timeoutMs: 10_000 });
    assert.ok(existsSync(join(ws, 'a.txt')));
    plan = true;
    const r = await t.run('echo two > b.txt', { timeoutMs: 10_000 });
    assert.match(r.output, /Read-only file system/);
    assert.ok(!existsSync(join(ws, 'b.txt')));
    plan = false;
    await t.run('echo three > c.txt', { timeoutMs: 10_000 });
    assert.ok(existsSync(join(ws, 'c.txt')));
  });

  it('interrupts the command, not the sandbox: the shell and its folder stay', async () => {
    const t = shell([]);
    await t.run('mkdir -p d && cd d', { timeoutMs: 10_000 });
    const long = t.run('sleep 20; echo finished', { timeoutMs: 15_000 });
    setTimeout(() => void t.interrupt(), 300);
    const r = await long;
    assert.notEqual(r.exitCode, 0);
    assert.doesNotMatch(r.output, /finished/);
    const after = await t.run('pwd', { timeoutMs: 10_000 });
    assert.equal(after.output.trim(), join(ws, 'd'));
  });

  it('refuses to run under "required" where no sandbox can start, and runs unsandboxed under "auto"', async () => {
    writeFileSync(join(ws, 'f'), 'x');
    const missing = { allowedHosts: () => [], bwrap: join(ws, 'no-bwrap-here') };
    const required = new CommandSandbox({ setting: 'required', ...missing });
    assert.equal(required.state.kind, 'unavailable');
    const refused = new NodeTerminalPort({
      cwd: ws,
      sandbox: { sandbox: required, workspaces: [ws], readOnly: () => false },
    });
    cleanup.push(() => refused.dispose());
    await assert.rejects(refused.run('true', { timeoutMs: 5000 }), SandboxRequiredError);
    const auto = new CommandSandbox({ setting: 'auto', ...missing });
    assert.equal(auto.active, false);
    const t = new NodeTerminalPort({
      cwd: ws,
      sandbox: { sandbox: auto, workspaces: [ws], readOnly: () => false },
    });
    cleanup.push(() => t.dispose());
    assert.equal((await t.run('cat f', { timeoutMs: 5000 })).output.trim(), 'x');
  });

  it('starts with a workspace inside a hidden folder and a hidden file inside a hidden folder', async () => {
    // As in an editor's test profile: the config folder (hidden) holds the key (hidden) and the workspace.
    const config = join(ws, 'config');
    const inner = join(config, 'logbook', 'project');
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(config, 'logbook', 'signing-key.pem'), 'secret-key');
    writeFileSync(join(inner, 'visible.txt'), 'visible');
    const sandbox = new CommandSandbox({
      setting: 'required',
      allowedHosts: () => [],
      denyRead: [join(config, 'logbook')],
      ownSecrets: [join(config, 'logbook', 'signing-key.pem')],
    });
    const t = new NodeTerminalPort({
      cwd: inner,
      sandbox: { sandbox, workspaces: [inner], readOnly: () => false },
    });
    cleanup.push(
      () => t.dispose(),
      () => sandbox.dispose(),
    );
    const r = await t.run('cat visible.txt; echo; cat ../signing-key.pem; echo written > new.txt', {
      timeoutMs: 10_000,
    });
    assert.match(r.output, /^visible$/m);
    assert.doesNotMatch(r.output, /secret-key/);
    assert.ok(existsSync(join(inner, 'new.txt')), 'the workspace stays writable inside the hidden folder');
  });

  it('says why and how to fix it when bwrap is missing, or on another system', () => {
    const missing = probeSandbox(join(tmpdir(), 'no-such-bwrap'));
    assert.equal(missing.available, false);
    if (!missing.available) {
      assert.match(missing.problem, /bubblewrap \(bwrap\) is not installed/);
      assert.match(missing.fix, /apt install bubblewrap/);
    }
    const windows = probeSandbox(undefined, 'win32');
    assert.ok(!windows.available && /Windows/.test(windows.problem) && /WSL/.test(windows.fix));
    const here = probeSandbox();
    assert.equal(here.available, true, 'this machine runs the sandbox (the test suite needs bubblewrap)');
  });
});
