// The CLI started with OPENAI_API_KEY in its environment runs in the process it was started as (no
// second Node start), the key reaches the endpoint, and what it starts does not inherit it. Where a
// sandbox runs, no process of the host's, this one included, is visible to the agent's commands
// (test/unit/hostile/cli-environ.test.ts).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dropSecretsFor, secretVariables } from '../../../src/host/node/cli/secret-environment';
import { printed, runCli } from './cli-runner';
import { CliFixture, readLogJson, SECRET_KEY, terminalCall } from './fixtures';

const onLinux = process.platform === 'linux';

/** `pid` and every process below it, each with its command line. */
function processTree(pid: number): Map<number, string> {
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
  const commands = new Map<number, string>();
  for (const p of tree) {
    try {
      commands.set(p, readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim());
    } catch {
      // Gone meanwhile.
    }
  }
  return commands;
}

describe('logbook run: the key stays in the CLI, which starts once', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('one Node process does the work; its shell does not inherit the key; the endpoint gets it', async function () {
    if (!onLinux) this.skip();
    const env = await fx.startLlm({
      name: 'cli-one-process',
      turns: [
        {
          match: { lastRole: 'user' },
          // The shell's own environment, as the kernel keeps it.
          reply: {
            toolCalls: [terminalCall('call_environ', "tr '\\0' '\\n' < /proc/$$/environ; echo LOOKED")],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'LOOKED' },
          // Slow enough to look at every process while it streams.
          reply: { content: 'Looked.', chunkSize: 1, delayMs: 300 },
        },
      ],
    });
    env.LOGBOOK_SANDBOX = 'off';
    const store = join(fx.tmp(), 'conv');
    let seen = new Map<number, string>();
    const r = await runCli(
      ['run', '--workspace', fx.tmp(), '--task', 'look', '--store', store, '--confirm', 'never'],
      {
        env,
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (fx.llm!.completionBodies().length < 2) return;
            clearInterval(poll);
            seen = processTree(child.pid!);
          }, 50);
          child.once('exit', () => clearInterval(poll));
        },
      },
    );
    assert.equal(r.code, 0, printed(r));
    const cliProcesses = [...seen.values()].filter((c) => c.includes(' run --workspace '));
    assert.equal(
      cliProcesses.length,
      1,
      `one CLI process, not a second start: ${[...seen.values()].join('; ')}`,
    );
    const observation = JSON.stringify((await readLogJson(store)).find((e) => e.kind === 'ObservationEvent'));
    assert.ok(observation.includes('LOOKED'), observation);
    assert.ok(!observation.includes('OPENAI_API_KEY'), observation);
    for (const req of fx.llm!.requests) assert.equal(req.headers.authorization, `Bearer ${SECRET_KEY}`);
  });

  it('names the secret variables: the key, and a base URL only when it carries credentials', () => {
    assert.deepEqual(secretVariables({ OPENAI_BASE_URL: 'https://llm.example/v1', LOGBOOK_MODEL: 'm' }), []);
    assert.deepEqual(secretVariables({ OPENAI_API_KEY: '' }), []);
    assert.deepEqual(
      secretVariables({ OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: 'https://u:p@llm.example/v1' }),
      ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
    );
  });

  it('show and verify forget the secrets at once; run keeps them for its model client', () => {
    const env = { OPENAI_API_KEY: 'sk-1', LOGBOOK_MODEL: 'm' };
    assert.equal(dropSecretsFor('run', env), false);
    assert.equal(env.OPENAI_API_KEY, 'sk-1');
    assert.equal(dropSecretsFor('show', env), true);
    assert.deepEqual(env, { LOGBOOK_MODEL: 'm' });
  });
});
