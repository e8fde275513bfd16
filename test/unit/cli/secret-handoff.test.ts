// The CLI started with OPENAI_API_KEY in its environment runs as a second process that never had
// it there: /proc/<pid>/environ (what `ps e` prints) of that process and of everything it starts
// (the agent's shell) is free of the key, while the key still reaches the endpoint.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { HANDOFF_ENV, secretVariables } from '../../../src/host/node/cli/secret-handoff';
import { printed, runCli } from './cli-runner';
import { CliFixture, readLogJson, SECRET_KEY, terminalCall } from './fixtures';

const repoRoot = join(__dirname, '..', '..', '..');
const onLinux = process.platform === 'linux';

/** The environment the kernel keeps for `pid`, as NAME=value lines; empty once it is gone. */
function environOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '(gone)';
  }
}

/** `pid` and every process below it. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

describe('logbook run: the key is not left in the CLI`s own environment', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('only the launcher has the key in /proc/<pid>/environ: not the CLI at work, not its shell; the endpoint gets it', async function () {
    if (!onLinux) this.skip();
    const env = await fx.startLlm({
      name: 'cli-secret-handoff',
      turns: [
        {
          match: { lastRole: 'user' },
          // The command runs in a fresh bash whose parent is the conversation's shell; that
          // shell's parent is the CLI that does the work.
          reply: {
            toolCalls: [
              terminalCall(
                'call_environ',
                "tr '\\0' '\\n' < /proc/$(cut -d' ' -f4 /proc/$PPID/stat)/environ",
              ),
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: HANDOFF_ENV },
          // Slow enough to look at every process while it streams.
          reply: { content: 'Looked.', chunkSize: 1, delayMs: 300 },
        },
      ],
    });
    // Where no sandbox runs: inside one the shell's parent is the sandbox's own process, and no
    // process of the host is visible at all (test/unit/hostile/sandbox.test.ts).
    env.LOGBOOK_SANDBOX = 'off';
    const store = join(fx.tmp(), 'conv');
    const seen = new Map<number, string[]>();
    let launcher = 0;
    const r = await runCli(
      ['run', '--workspace', fx.tmp(), '--task', 'look', '--store', store, '--confirm', 'never'],
      {
        env,
        onSpawn: (child) => {
          launcher = child.pid!;
          const poll = setInterval(() => {
            if (fx.llm!.completionBodies().length < 2) return;
            clearInterval(poll);
            for (const pid of processTree(child.pid!)) seen.set(pid, [commandOf(pid), ...environOf(pid)]);
          }, 50);
          child.once('exit', () => clearInterval(poll));
        },
      },
    );
    assert.equal(r.code, 0, printed(r));
    assert.ok(
      seen.size >= 3,
      `the launcher, the relaunched CLI and its shell: ${[...seen.keys()].join(', ')}`,
    );
    for (const [pid, environ] of seen) {
      // The launcher got its environment from whoever started `logbook`; nothing can take the key
      // out of it. Everything that does the work, and everything the agent starts, never had it.
      if (pid === launcher) continue;
      assert.ok(
        !environ.join('\n').includes(SECRET_KEY),
        `process ${pid} (${environ[0]}) has the key in its environ`,
      );
    }
    assert.ok(
      seen.get(launcher)!.includes(`OPENAI_API_KEY=${SECRET_KEY}`),
      'the launcher is the one that had it',
    );
    const relaunched = [...seen.values()].filter((e) => e.includes(`${HANDOFF_ENV}=1`));
    assert.equal(relaunched.length, 1, 'exactly one process was relaunched');
    // What the agent's shell read of its parent: the handoff mark, no key (not even redacted).
    const observation = JSON.stringify((await readLogJson(store)).find((e) => e.kind === 'ObservationEvent'));
    assert.ok(observation.includes(`${HANDOFF_ENV}=1`), observation);
    assert.ok(!observation.includes('OPENAI_API_KEY'), observation);
    // The key did reach the endpoint, on every request.
    for (const req of fx.llm!.requests) assert.equal(req.headers.authorization, `Bearer ${SECRET_KEY}`);
  });

  it('without a secret in its environment the CLI does not relaunch', () => {
    assert.deepEqual(secretVariables({ OPENAI_BASE_URL: 'https://llm.example/v1', LOGBOOK_MODEL: 'm' }), []);
    assert.deepEqual(secretVariables({ OPENAI_API_KEY: '' }), []);
    assert.deepEqual(
      secretVariables({ OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: 'https://u:p@llm.example/v1' }),
      ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
      'a base URL with credentials is handed over too',
    );
  });

  it('the relaunched process reads fd 3, closes it (its children never get it) and drops the mark', async function () {
    if (!onLinux) this.skip();
    const probe = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'test/support/secret-handoff-probe.ts')],
      {
        cwd: repoRoot,
        env: { ...process.env, [HANDOFF_ENV]: '1', OPENAI_API_KEY: '' },
        stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
      },
    );
    (probe.stdio[3] as Writable).end(JSON.stringify({ OPENAI_API_KEY: SECRET_KEY }));
    let out = '';
    probe.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise((resolve) => probe.on('close', resolve));
    assert.equal(code, 0, out);
    assert.deepEqual(JSON.parse(out), { received: true, key: SECRET_KEY, marker: null, childFd3: 'closed' });
  });
});
