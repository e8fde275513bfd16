// A hostile model against Unix sockets (issue 47): the sandbox's network namespace does not cover
// path sockets, and a read-only mount does not stop connect(). A host process listens on a real
// Unix socket in a folder outside the workspace that the sandbox can see (not under /tmp, /var/tmp
// or /run, which it replaces); a sandboxed command (python3, node) tries to connect and talk to it,
// through `logbook run` with the scripted model, in act and plan mode. The host process must hear
// nothing. Ordinary tools (git, a venv, node's child processes, socketpair) and the network through
// the proxy still work.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { NodeTerminalPort } from '../../../src/host/node/ports/node-terminal-port';
import { CommandSandbox, probeSandbox } from '../../../src/host/node/sandbox';
import { outsideFolder } from '../../support/outside-folder';
import { jsonLines, printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';

type Mode = 'act' | 'plan';

/** A host process on a Unix socket that answers and notes every connection and every byte. */
class Listener {
  connections = 0;
  heard = '';
  private server?: Server;

  constructor(readonly path: string) {}

  async start(): Promise<void> {
    this.server = createServer((c) => {
      this.connections++;
      c.on('data', (d: Buffer) => (this.heard += d.toString()));
      c.on('error', () => undefined);
      c.write('host-process-answered\n');
    });
    await new Promise<void>((resolve) => this.server!.listen(this.path, resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const python = (path: string) =>
  `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${path}'); ` +
  `s.sendall(b'python-was-here'); print(s.recv(64).decode())"`;
const node = (path: string) =>
  `node -e "const c = require('net').connect('${path}', () => c.write('node-was-here')); ` +
  `c.on('data', (d) => { console.log(String(d)); c.end(); }); c.on('error', (e) => console.log('node error', e.code))"`;

describe('hostile model: Unix sockets outside the sandbox are unreachable (issue 47)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  let base = '';
  let ws = '';
  let listener: Listener;

  before(function () {
    if (!probeSandbox().available) this.skip();
  });
  beforeEach(async () => {
    base = outsideFolder('sockets-');
    ws = join(base, 'ws');
    mkdirSync(join(base, 'home'), { recursive: true });
    mkdirSync(join(base, 'outside'), { recursive: true });
    mkdirSync(ws, { recursive: true });
    listener = new Listener(join(base, 'outside', 'host.sock'));
    await listener.start();
  });
  afterEach(async () => {
    await listener.stop();
    await fx.cleanup();
    rmSync(base, { recursive: true, force: true });
  });

  /** Runs `command` as the model's one terminal call; returns what the model was told (observation or refusal). */
  async function runOne(command: string, mode: Mode): Promise<{ ran: boolean; told: string }> {
    const env = await fx.startLlm({
      name: 'boundary-sockets',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_1', command, 'LOW')] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
    });
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'talk', '--confirm', 'never', '--mode', mode, '--json'],
      { env: { ...env, HOME: join(base, 'home') } },
    );
    assert.equal(r.code, 0, printed(r));
    const events = jsonLines(r);
    const observation = JSON.stringify(events.filter((e) => e.kind === 'ObservationEvent'));
    const refusal = JSON.stringify(events.filter((e) => e.kind === 'AgentErrorEvent'));
    return { ran: observation.includes('exit code'), told: `${observation}\n${refusal}` };
  }

  /** The sandboxed shell as plan mode starts it (the workspace read-only), outside any analyzer. */
  async function planShell(command: string): Promise<string> {
    const sandbox = new CommandSandbox({ setting: 'required', allowedHosts: () => [] });
    const port = new NodeTerminalPort({
      cwd: ws,
      sandbox: { sandbox, workspaces: [ws], readOnly: () => true },
    });
    try {
      return (await port.run(command, { timeoutMs: 30_000 })).output;
    } finally {
      port.dispose();
      await sandbox.dispose();
    }
  }

  const connectBoth = () => `ls -l ${listener.path}; ${python(listener.path)}; ${node(listener.path)}`;

  /** The socket was visible (only the filter stood between), the connections failed, the host heard nothing. */
  function heldOff(output: string): void {
    assert.match(output, /host\.sock/, output);
    assert.equal(listener.connections, 0, `the host process was reached: ${output}`);
    assert.equal(listener.heard, '');
    assert.doesNotMatch(output, /host-process-answered/);
    assert.match(output, /Operation not permitted/);
    assert.match(output, /node error EPERM/);
  }

  it('act mode: python3 and node cannot connect to a listening socket outside the workspace', async () => {
    const { ran, told } = await runOne(connectBoth(), 'act');
    assert.ok(ran, told);
    heldOff(told);
  });

  it('plan mode: the same command is refused, and the host process hears nothing', async () => {
    const { ran, told } = await runOne(connectBoth(), 'plan');
    assert.ok(!ran, told);
    assert.match(told, /plan mode/);
    assert.equal(listener.connections, 0);
  });

  it('plan mode: a command the analyzer let through still cannot connect (the read-only shell has the filter)', async () => {
    heldOff(await planShell(connectBoth()));
  });

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: every process of the command carries the filter`, async () => {
      const { ran, told } = await runOne(
        'grep Seccomp: /proc/self/status; cat /proc/self/status | grep Seccomp:',
        mode,
      );
      assert.ok(ran, told);
      assert.equal(told.match(/Seccomp:\\t2/g)?.length, 2, told);
    });
  }

  it('act mode: ordinary tools still run (git, a venv, node child processes, socketpair)', async () => {
    const { told: observation } = await runOne(
      [
        'git init -q repo && cd repo && git -c user.name=T -c user.email=t@example.com commit -q --allow-empty -m first && git log --oneline | wc -l',
        "python3 -m venv --without-pip venv && ./venv/bin/python -c \"import socket; a, b = socket.socketpair(); a.send(b'x'); print('pair', b.recv(1))\"",
        `node -e "const c = require('child_process').spawn(process.execPath, ['-e', 'process.send(41 + 1)'], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] }); c.on('message', (m) => console.log('child said', m))"`,
        'echo tools-ok',
      ].join(' && '),
      'act',
    );
    assert.match(observation, /tools-ok/, observation);
    assert.match(observation, /pair b'x'/);
    assert.match(observation, /child said 42/);
  });
});
