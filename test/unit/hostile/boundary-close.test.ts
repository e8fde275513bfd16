// An agent that took the conversation over by `transfer_to_agent` holds the conversation itself to
// its grant: its smaller step limit and token budget stop the loop, its narrower host list is what
// the sandbox lets through, and a later run read back from the log holds to the same grant. The
// real CLI against the scripted model, in act and plan mode; the host test with the real bwrap.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../../../src/core/settings/schema';
import { NodeTerminalPort } from '../../../src/host/node/ports/node-terminal-port';
import { CommandSandbox } from '../../../src/host/node/sandbox';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';
import type { Json } from '../agents/agents-fixture';
import { writeHelperCommand } from './agent-trust-fixture';

/** Writes the workspace definitions `defs` (name → front matter lines) into `.logbook/agents/`. */
function workspaceWith(fx: CliFixture, defs: Record<string, string[]>): string {
  const ws = fx.tmp();
  const dir = join(ws, '.logbook', 'agents');
  mkdirSync(dir, { recursive: true });
  for (const [name, front] of Object.entries(defs))
    writeFileSync(
      join(dir, `${name}.md`),
      `---\nname: ${name}\ndescription: The ${name}.\n${front.join('\n')}\n---\nDo it.\n`,
    );
  return ws;
}

const transferTo = (name: string) => ({
  toolCalls: [{ id: `c_to_${name}`, name: 'transfer_to_agent', arguments: { agent_name: name } }],
});
const think = { toolCalls: [{ id: 'c_k', name: 'think', arguments: { thought: 'again' } }] };

const countOf = (log: Json[], tool: string) =>
  log.filter((e) => e.kind === 'ActionEvent' && e.tool_name === tool).length;
const errorsOf = (log: Json[]) =>
  log.filter((e) => e.kind === 'ConversationErrorEvent').map((e) => JSON.stringify(e));
const handoffStarts = (log: Json[]) =>
  log
    .filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_start')
    .map((e) => e.value as Json);

for (const mode of ['act', 'plan'] as const)
  describe(`hostile: a handoff's smaller budget binds the conversation it takes over (${mode} mode, CLI)`, function () {
    this.timeout(120_000);
    const fx = new CliFixture();
    afterEach(() => fx.cleanup());
    const run = (ws: string, store: string, task: string, more: string[] = []) => [
      'run',
      '--workspace',
      ws,
      '--store',
      store,
      '--mode',
      mode,
      '--confirm',
      'never',
      '--task',
      task,
      ...more,
    ];

    it('max_iterations: the run stops at the taken-over agent’s limit, and so does the next run', async () => {
      const ws = workspaceWith(fx, { brief: ['tools: [think]', 'mode: act', 'max_iterations: 3'] });
      const env = await fx.startLlm({
        name: `handoff-steps-${mode}`,
        turns: [
          { match: { lastRole: 'user', lastContentIncludes: 'hand it over' }, reply: transferTo('brief') },
        ],
        fallback: think,
      });
      const store = join(fx.tmp(), 'conv');
      const first = await runCli(run(ws, store, 'hand it over', ['--max-iterations', '20']), { env });
      let log = await readLogJson(store);
      // The handoff is the run's first step; the brief agent's limit counts the run's steps.
      assert.equal(countOf(log, 'think'), 2, printed(first));
      assert.ok(
        errorsOf(log).some((e) => /iteration_limit/.test(e) && /brief agent's grant/.test(e)),
        errorsOf(log).join('\n'),
      );
      assert.equal((handoffStarts(log)[0]!.grant as Json).maxIterations, 3);
      // Read back from the log, the next run holds to the same grant.
      const second = await runCli(run(ws, store, 'go on', ['--max-iterations', '20']), { env });
      log = await readLogJson(store);
      assert.equal(countOf(log, 'think'), 5, printed(second));
    });

    it('max_tokens: the conversation stops once the taken-over agent spent its budget, also after a resume', async () => {
      const ws = workspaceWith(fx, { frugal: ['tools: [think]', 'mode: act', 'max_tokens: 500'] });
      const usage = { prompt: 200, completion: 50 };
      const env = await fx.startLlm({
        name: `handoff-tokens-${mode}`,
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'hand it over' },
            reply: { ...transferTo('frugal'), usage },
          },
        ],
        fallback: { ...think, usage },
      });
      const store = join(fx.tmp(), 'conv');
      const first = await runCli(run(ws, store, 'hand it over', ['--max-iterations', '20']), { env });
      let log = await readLogJson(store);
      // 250 at the handoff, then 3 × 250: 1000 > 250 + 500, so no fifth request is made.
      const requests = fx.llm!.completionBodies().length;
      assert.equal(requests, 4, printed(first));
      const [start] = handoffStarts(log);
      // What the conversation had used when frugal took over: its 500 tokens count from there.
      assert.deepEqual(start!.spent, { tokens: 250, cost: 0 });
      assert.equal((start!.grant as Json).maxTokens, 500);
      assert.ok(
        errorsOf(log).some((e) => /token_budget/.test(e)),
        errorsOf(log).join('\n'),
      );
      // A new run of the same conversation: still over frugal's budget, so nothing is asked.
      await runCli(run(ws, store, 'go on', ['--max-iterations', '20']), { env });
      log = await readLogJson(store);
      assert.equal(fx.llm!.completionBodies().length, requests, 'a resumed run spent past the budget');
    });
  });

// Act mode only: plan mode refuses every command that reaches the network, before any host list.
for (const mode of ['act'] as const)
  describe(`hostile: a handoff's narrower allowed_hosts binds the conversation's commands (${mode} mode, CLI, real bwrap)`, function () {
    this.timeout(120_000);
    const fx = new CliFixture();
    let origin: http.Server;
    let port: number;
    before(async () => {
      origin = http.createServer((req, res) => res.end(`origin saw ${req.url}`));
      await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
      port = (origin.address() as AddressInfo).port;
    });
    after(() => origin.close());
    afterEach(() => fx.cleanup());

    /** A request through the sandbox's proxy, as a proxy-aware program makes it. */
    const fetchCall = (id: string, path: string) =>
      terminalCall(
        id,
        `node -e "require('http').get({host:'127.0.0.1',port:3128,path:'http://127.0.0.1:${port}${path}'},r=>{let b='';r.on('data',d=>b+=d);r.on('end',()=>console.log(r.statusCode,b))})"`,
      );

    it('after the handoff a host only the user allowed is turned away, and still after a resume', async () => {
      const ws = workspaceWith(fx, {
        offline: ['tools: [terminal, think]', 'mode: act', 'allowed_hosts: [registry.npmjs.org]'],
      });
      const env = await fx.startLlm({
        name: `handoff-hosts-${mode}`,
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'fetch then hand over' },
            reply: { toolCalls: [fetchCall('c_1', '/before')] },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'origin saw /before' },
            reply: transferTo('offline'),
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'now handled by the offline agent' },
            reply: { toolCalls: [fetchCall('c_2', '/after')] },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Fetched.' } },
          {
            match: { lastRole: 'user', lastContentIncludes: 'fetch again' },
            reply: { toolCalls: [fetchCall('c_3', '/resumed')] },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Fetched again.' } },
        ],
      });
      const store = join(fx.tmp(), 'conv');
      const base = ['run', '--workspace', ws, '--store', store, '--mode', mode, '--confirm', 'never'];
      const more = ['--sandbox', 'required', '--allow-host', '127.0.0.1'];
      const first = await runCli([...base, ...more, '--task', 'fetch then hand over'], { env });
      assert.equal(first.code, 0, printed(first));
      const second = await runCli([...base, ...more, '--task', 'fetch again'], { env });
      assert.equal(second.code, 0, printed(second));
      assert.equal(fx.llm!.remainingTurns(), 0);
      const log = await readLogJson(store);
      const outputs = log
        .filter((e) => e.kind === 'ObservationEvent' && e.tool_name === 'terminal')
        .map((e) => JSON.stringify(e.observation));
      assert.equal(outputs.length, 3);
      assert.match(outputs[0]!, /origin saw \/before/);
      assert.doesNotMatch(outputs[1]!, /origin saw/, 'the offline agent reached a host its grant leaves out');
      assert.doesNotMatch(outputs[2]!, /origin saw/, 'after a resume the offline agent reached it');
      assert.deepEqual((handoffStarts(log)[0]!.grant as Json).allowedHosts, []);
    });
  });

const HELPER =
  '---\nname: helper\ndescription: Does what it is told.\ntools: [think]\nmode: act\n---\nDo it.\n';

for (const mode of ['act', 'plan'] as const)
  describe(`hostile: a definition accepted between runs is recorded when the conversation goes on (${mode} mode, CLI)`, function () {
    this.timeout(120_000);
    const fx = new CliFixture();
    afterEach(() => fx.cleanup());

    it('logbook agents accept, then a later run: the log says when it was accepted, before the handoff uses it', async () => {
      const ws = fx.tmp();
      const store = join(fx.tmp(), 'conv');
      const env = await fx.startLlm({
        name: `accepted-between-${mode}`,
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'make a helper' },
            reply: {
              toolCalls: [
                {
                  // A command run without a sandbox: autopilot refuses the file tool's write there.
                  id: 'c_p',
                  name: 'terminal',
                  arguments: {
                    command: writeHelperCommand(HELPER),
                    security_risk: 'LOW',
                    summary: 'write a definition',
                  },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Made it.' } },
          { match: { lastRole: 'user', lastContentIncludes: 'now use it' }, reply: transferTo('helper') },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'now handled by the helper agent' },
            reply: { content: 'The helper has it.' },
          },
        ],
      });
      const base = ['run', '--workspace', ws, '--store', store, '--confirm', 'never'];
      // The definition is written by the agent (in act mode: plan mode writes nothing).
      const first = await runCli([...base, '--sandbox', 'off', '--task', 'make a helper'], { env });
      assert.equal(first.code, 0, printed(first));
      assert.match(first.stdout, /agent definition held: helper/);
      const before = new Date().toISOString();
      const accepted = await runCli(['agents', 'accept', 'helper', '--workspace', ws]);
      assert.equal(accepted.code, 0, printed(accepted));
      const after = new Date().toISOString();
      const second = await runCli([...base, '--mode', mode, '--task', 'now use it'], { env });
      assert.equal(second.code, 0, printed(second));
      assert.equal(fx.llm!.remainingTurns(), 0);
      const log = await readLogJson(store);
      const at = (key: string) =>
        log.findIndex((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === key);
      const records = log.filter(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_definition_accepted',
      );
      assert.equal(records.length, 1, 'the acceptance is recorded once');
      const v = records[0]!.value as Json;
      assert.equal(v.name, 'helper');
      assert.match(String(v.fingerprint), /^sha256:[0-9a-f]{64}$/);
      assert.ok(String(v.accepted_at) >= before && String(v.accepted_at) <= after, String(v.accepted_at));
      // Recorded as the conversation went on: after the first run's events, before the handoff.
      assert.ok(at('agent_definition_accepted') < at('agent_start'));
      assert.ok(at('agent_definition_accepted') > log.findIndex((e) => e.kind === 'ObservationEvent'));
      assert.match(second.stdout, /\[agent\] you accepted the definition of helper \(.*\) on \d{4}-/);
      // A third run records nothing again.
      await fx.startLlm({ name: 'quiet', turns: [], fallback: { content: 'Nothing.' } });
      await runCli([...base, '--task', 'anything'], { env: fx.env() });
      const again = (await readLogJson(store)).filter(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_definition_accepted',
      );
      assert.equal(again.length, 1);
    });
  });

/** A tool that listens on a socket of its own and talks to itself through it. */
const selfSocket = (path: string) =>
  `python3 -c "import socket, os; p = '${path}'; s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(1); ` +
  `c = socket.socket(socket.AF_UNIX); c.connect(p); a, _ = s.accept(); a.sendall(b'self-answered'); ` +
  `print(c.recv(64).decode()); os.unlink(p)"`;

describe('logbook.sandbox.allowUnixSockets: the Unix socket filter can be turned off, by the user only (real bwrap)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  before(function () {
    const state = new CommandSandbox({ setting: 'auto', allowedHosts: () => [] }).state;
    if (state.kind !== 'on' || state.socketFilterMissing) this.skip();
  });
  afterEach(() => fx.cleanup());

  const runOne = async (env: Record<string, string>) => {
    const ws = fx.tmp();
    const llm = await fx.startLlm({
      name: 'own-socket',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: { toolCalls: [terminalCall('c_s', selfSocket('own.sock'))] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
    });
    const r = await runCli(
      ['run', '--workspace', ws, '--sandbox', 'required', '--confirm', 'never', '--task', 'listen'],
      { env: { ...llm, ...env } },
    );
    assert.equal(r.code, 0, printed(r));
    const log = await readLogJson(onlyConversationDir(ws));
    const told = log.filter((e) => e.kind === 'ObservationEvent').map((e) => JSON.stringify(e.observation));
    return { told: told.join('\n'), stdout: r.stdout };
  };

  it('act mode (CLI): off by default, a tool cannot listen on its own socket; turned on, it can', async () => {
    const held = await runOne({});
    assert.match(held.told, /Operation not permitted/);
    assert.doesNotMatch(held.told, /"text":"self-answered/);
    const allowed = await runOne({ LOGBOOK_SANDBOX_ALLOW_UNIX_SOCKETS: '1' });
    assert.match(allowed.told, /"text":"self-answered/, allowed.told);
    // The run says what the sandbox no longer holds.
    assert.match(allowed.stdout, /Unix sockets are not filtered \(logbook\.sandbox\.allowUnixSockets\)/);
  });

  it('plan mode (the read-only shell): the same, in the sandbox’s own /tmp', async () => {
    const ws = fx.tmp();
    const run = async (allowUnixSockets: boolean) => {
      const sandbox = new CommandSandbox({ setting: 'required', allowedHosts: () => [], allowUnixSockets });
      const port = new NodeTerminalPort({
        cwd: ws,
        sandbox: { sandbox, workspaces: [ws], readOnly: () => true },
      });
      try {
        return (await port.run(selfSocket('/tmp/own.sock'), { timeoutMs: 30_000 })).output;
      } finally {
        port.dispose();
        await sandbox.dispose();
      }
    };
    assert.match(await run(false), /Operation not permitted/);
    assert.match(await run(true), /self-answered/);
  });

  it('is a machine setting that guards the user: a workspace cannot turn it on', () => {
    const s = SETTINGS.find((d) => d.key === 'sandbox.allowUnixSockets');
    assert.ok(s, 'in the settings schema');
    assert.equal(s.default, false);
    assert.equal(s.guards, true);
    assert.equal(s.scope, 'machine');
  });
});

for (const mode of ['act', 'plan'] as const)
  describe(`hostile: approve starts only the MCP servers the run started (${mode} mode, CLI)`, function () {
    this.timeout(90_000);
    const fx = new CliFixture();
    afterEach(() => fx.cleanup());

    it('an MCP file rewritten after the run is refused by name, and starts only when given again', async () => {
      const ws = fx.tmp();
      const config = join(ws, '.mcp.json');
      writeFileSync(config, JSON.stringify({ mcpServers: {} }));
      const env = await fx.startLlm({
        name: `mcp-rewritten-${mode}`,
        turns: [
          { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('c_ls', 'ls')] } },
          { match: { lastRole: 'tool' }, reply: { content: 'Listed.' } },
        ],
      });
      const store = join(fx.tmp(), 'conv');
      const run = await runCli(
        [
          'run',
          '--workspace',
          ws,
          '--store',
          store,
          '--mode',
          mode,
          '--confirm',
          'always',
          '--mcp-config',
          config,
          '--task',
          'list',
        ],
        { env },
      );
      assert.equal(run.code, 2, printed(run));
      // While it waits, the workspace's MCP file (any tool or command could write it) gains a server.
      const marker = join(fx.tmp(), 'planted-server-started');
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: {
            planted: {
              command: process.execPath,
              args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
            },
          },
        }),
      );
      const approve = await runCli(['approve', store], { env });
      assert.notEqual(approve.code, 0, printed(approve));
      assert.ok(!existsSync(marker), 'approve started a server the run never had');
      assert.doesNotMatch(approve.stderr, /MCP server "planted"/);
      assert.ok(
        approve.stderr.includes(`the MCP servers' file ${config} changed since the run`),
        printed(approve),
      );
      assert.ok(approve.stderr.includes(`give --mcp-config ${config}`), printed(approve));
      // Named again by the user, it is theirs: its servers start.
      const given = await runCli(['approve', store, '--mcp-config', config], { env });
      assert.equal(given.code, 0, printed(given));
      assert.match(given.stderr, /MCP server "planted"/, printed(given));
    });
  });

describe('hostile: with the sandbox off, the shell state file cannot be swapped for a link (CLI and the shell itself)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  let outside = '';
  const VICTIM = 'the user’s own file\n';
  beforeEach(() => {
    outside = outsideFolder('carry-');
    writeFileSync(join(outside, 'victim'), VICTIM);
  });
  afterEach(async () => {
    await fx.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  /** Puts a link to the victim where this run's state is written, and where the next one's was. */
  const swap = () =>
    `rm -f "$__logbook_file"; ln -s ${join(outside, 'victim')} "$__logbook_file"; ` +
    `for f in "$(dirname "$__logbook_file")"/*; do rm -f "$f"; ln -s ${join(outside, 'victim')} "$f"; done; ` +
    `ln -sf ${join(outside, 'victim')} "$(dirname "$__logbook_file")/state"`;

  it('act mode (CLI): the victim outside is left byte for byte, and the folder still carries', async () => {
    const ws = fx.tmp();
    mkdirSync(join(ws, 'sub'));
    const env = await fx.startLlm({
      name: 'carry-swap',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('c_1', swap())] } },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [terminalCall('c_2', 'cd sub && export MARK=kept')] },
        },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [terminalCall('c_3', 'echo "in $(basename "$PWD") with $MARK"')] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
    });
    const r = await runCli(
      ['run', '--workspace', ws, '--sandbox', 'off', '--confirm', 'never', '--task', 'swap it'],
      { env },
    );
    assert.equal(r.code, 0, printed(r));
    assert.equal(readFileSync(join(outside, 'victim'), 'utf8'), VICTIM, 'a write went through the link');
    const log = await readLogJson(onlyConversationDir(ws));
    const told = log.filter((e) => e.kind === 'ObservationEvent').map((e) => JSON.stringify(e.observation));
    assert.match(told[2]!, /in sub with kept/, told.join('\n'));
  });

  it('the shell a plan-mode run uses (no analyzer in between): the same', async () => {
    const ws = fx.tmp();
    const port = new NodeTerminalPort({ cwd: ws });
    try {
      await port.run(swap(), { timeoutMs: 15_000 });
      await port.run('export MARK=kept', { timeoutMs: 15_000 });
      const out = await port.run('echo "with $MARK"', { timeoutMs: 15_000 });
      assert.match(out.output, /with kept/);
    } finally {
      port.dispose();
    }
    assert.equal(readFileSync(join(outside, 'victim'), 'utf8'), VICTIM, 'a write went through the link');
  });
});

describe('hostile: a repository planted under node_modules runs nothing for the user (act mode, CLI, real bwrap)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  let base = '';
  const at = (...p: string[]) => join(base, ...p);
  beforeEach(() => {
    base = outsideFolder('deps-git-');
    for (const d of ['ws', 'home', 'outside']) mkdirSync(at(d), { recursive: true });
    writeFileSync(at('home', '.gitconfig'), '[user]\n\tname = T\n\temail = t@example.com\n');
  });
  afterEach(async () => {
    await fx.cleanup();
    rmSync(base, { recursive: true, force: true });
  });

  /** The user's own git, outside any sandbox: what it runs is the point, not whether it succeeds. */
  const userGit = (cwd: string) => {
    try {
      execFileSync('git', ['-C', cwd, 'status'], {
        stdio: 'ignore',
        env: { PATH: process.env['PATH'], HOME: at('home'), GIT_CONFIG_NOSYSTEM: '1' },
      });
    } catch {
      // A repository left without its configuration may not open: nothing ran.
    }
  };

  for (const where of ['node_modules/evil', 'node_modules/@org/evil', 'node_modules/a/node_modules/evil'])
    it(`${where}: git init there with core.fsmonitor in its config`, async () => {
      const marker = at('outside', 'fsmonitor-ran');
      const command =
        `mkdir -p ${where} && git init -q ${where} && ` +
        `printf '[core]\\n\\tfsmonitor = touch ${marker}; false\\n' >> ${where}/.git/config && ` +
        `git -C ${where} config --get core.fsmonitor`;
      const env = await fx.startLlm({
        name: 'deps-git',
        turns: [
          { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('c_1', command)] } },
          { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
        ],
      });
      const r = await runCli(
        ['run', '--workspace', at('ws'), '--sandbox', 'required', '--confirm', 'never', '--task', 'set up'],
        { env: { ...env, HOME: at('home') } },
      );
      assert.equal(r.code, 0, printed(r));
      const told = (await readLogJson(onlyConversationDir(at('ws'))))
        .filter((e) => e.kind === 'ObservationEvent')
        .map((e) => JSON.stringify(e.observation))
        .join('\n');
      assert.match(told, /touch /, 'the command wrote the key');
      userGit(at('ws', ...where.split('/')));
      assert.ok(!existsSync(marker), `the user's git ran the planted fsmonitor: ${told}`);
    });
});
