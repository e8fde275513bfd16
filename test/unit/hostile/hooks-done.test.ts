// The hook cases in the other language than hooks.test.ts gives them, through the real CLI
// with the scripted model: a node hook denies `rm -rf`, hangs, prints garbage; a bash hook rewrites
// a command (`logbook run` prints what runs instead) and formats what the agent wrote; a changed
// repository hook, asked about again at a terminal and accepted, runs.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';
import { runCliAtTerminal } from './agent-trust-fixture';
import type { Scenario, ScriptedToolCall } from '../../support/llm-server';

type Json = Record<string, unknown>;
const MODES = ['act', 'plan'] as const;

function script(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, body);
  chmodSync(file, 0o755);
  return file;
}

function userHooks(fx: CliFixture, hooks: Json): Record<string, string> {
  const home = fx.tmp('logbook-hooks-config-');
  mkdirSync(join(home, 'logbook'), { recursive: true });
  writeFileSync(join(home, 'logbook', 'config.json'), JSON.stringify({ hooks }));
  return { XDG_CONFIG_HOME: home };
}

const pre = (command: string, timeout?: number): Json => ({
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }],
});

/** What the model read for its first call. */
async function firstResult(ws: string): Promise<string> {
  const e = (await readLogJson(onlyConversationDir(ws))).find(
    (x) => x['kind'] === 'ObservationEvent' || x['kind'] === 'AgentErrorEvent',
  );
  return JSON.stringify(e);
}

function oneCall(name: string, task: string, call: ScriptedToolCall): Scenario {
  return {
    name,
    turns: [
      { match: { lastRole: 'user', lastContentIncludes: task }, reply: { toolCalls: [call] } },
      { match: { lastRole: 'tool' }, reply: { content: 'done' } },
    ],
  };
}

const NODE_DENY = `#!/usr/bin/env node
let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const { tool_input } = JSON.parse(s);
  if (!/rm -rf/.test(tool_input.command)) return;
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse',
    permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed here' } }));
});
`;

describe('hostile: hooks, the other language', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  for (const mode of MODES) {
    it(`a PreToolUse hook (node) denies rm -rf in JSON: nothing is removed, the model reads why (${mode} mode)`, async () => {
      const ws = fx.tmp();
      writeFileSync(join(ws, 'keep.txt'), 'kept\n');
      const hook = script(fx.tmp('logbook-hook-scripts-'), 'deny.js', NODE_DENY);
      const command = mode === 'act' ? 'rm -rf keep.txt' : 'grep -c "rm -rf" keep.txt';
      const env = {
        ...(await fx.startLlm(oneCall('node-deny', 'clean up', terminalCall('c_rm', command)))),
        ...userHooks(fx, pre(hook)),
      };
      const r = await runCli(
        ['run', '--workspace', ws, '--confirm', 'never', '--mode', mode, '--task', 'clean up'],
        {
          env,
        },
      );
      assert.equal(r.code, 0, printed(r));
      assert.equal(readFileSync(join(ws, 'keep.txt'), 'utf8'), 'kept\n');
      assert.match(await firstResult(ws), /Blocked by the hook .*deny\.js.*rm -rf is not allowed here/);
      assert.match(
        r.stdout + r.stderr,
        /\[hook\] PreToolUse terminal .*deny\.js.* deny: rm -rf is not allowed here/,
      );
    });

    it(`a PreToolUse hook (node) that hangs is stopped at its timeout; the action does not run (${mode} mode)`, async () => {
      const ws = fx.tmp();
      const hook = script(
        fx.tmp('logbook-hook-scripts-'),
        'hang.js',
        '#!/usr/bin/env node\nsetTimeout(() => {}, 30_000);\n',
      );
      const env = {
        ...(await fx.startLlm(oneCall('node-hang', 'look', terminalCall('c_l', 'echo ran-it')))),
        ...userHooks(fx, pre(hook, 1)),
      };
      const started = Date.now();
      const r = await runCli(
        ['run', '--workspace', ws, '--confirm', 'never', '--mode', mode, '--task', 'look'],
        {
          env,
        },
      );
      assert.equal(r.code, 0, printed(r));
      assert.ok(Date.now() - started < 20_000, 'the hook was not stopped at its timeout');
      const result = await firstResult(ws);
      assert.match(result, /did not finish within its timeout of 1 s/);
      assert.doesNotMatch(result, /ran-it\\n/);
    });

    it(`a PreToolUse hook (node) that prints garbage is a clear error; the action does not run (${mode} mode)`, async () => {
      const ws = fx.tmp();
      const hook = script(
        fx.tmp('logbook-hook-scripts-'),
        'garbage.js',
        "#!/usr/bin/env node\nprocess.stdin.resume().on('end', () => console.log('looks fine to me'));\n",
      );
      const env = {
        ...(await fx.startLlm(oneCall('node-garbage', 'look', terminalCall('c_l', 'echo ran-it')))),
        ...userHooks(fx, pre(hook)),
      };
      const r = await runCli(
        ['run', '--workspace', ws, '--confirm', 'never', '--mode', mode, '--task', 'look'],
        {
          env,
        },
      );
      assert.equal(r.code, 0, printed(r));
      const result = await firstResult(ws);
      assert.match(result, /the hook's output is not JSON: looks fine to me/);
      assert.doesNotMatch(result, /ran-it\\n/);
    });
  }

  it('a PreToolUse hook (bash) rewrites a command: the rewrite runs, and `logbook run` prints it', async () => {
    const ws = fx.tmp();
    const hook = script(
      fx.tmp('logbook-hook-scripts-'),
      'rewrite.sh',
      `#!/usr/bin/env bash
input=$(cat)
case "$input" in
  *original-words*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten-words"}}}' ;;
esac
`,
    );
    const env = {
      ...(await fx.startLlm(oneCall('bash-rewrite', 'say it', terminalCall('c_e', 'echo original-words')))),
      ...userHooks(fx, pre(hook)),
    };
    const r = await runCli(['run', '--workspace', ws, '--confirm', 'never', '--task', 'say it'], { env });
    assert.equal(r.code, 0, printed(r));
    const result = await firstResult(ws);
    assert.match(result, /rewritten-words/);
    assert.doesNotMatch(result, /original-words/);
    assert.match(r.stdout + r.stderr, /rewrote \[runs with: \{"command":"echo rewritten-words"\}\]/);
    const shown = await runCli(['show', onlyConversationDir(ws)], { env });
    assert.match(shown.stdout, /hook runs:[\s\S]*rewrite\.sh.* rewrote \[runs with:/, printed(shown));
  });

  it('a PostToolUse formatter (bash) tidies the file the agent wrote, and tells the model', async () => {
    const ws = fx.tmp();
    const hook = script(
      fx.tmp('logbook-hook-scripts-'),
      'format.sh',
      `#!/usr/bin/env bash
file=$(sed -E 's/.*"file_path":"([^"]*)".*/\\1/')
sed -i -E 's/[[:space:]]+$//' "$file"
echo "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PostToolUse\\",\\"additionalContext\\":\\"formatted $file\\"}}"
`,
    );
    const create = {
      id: 'c_c',
      name: 'file_editor',
      arguments: {
        command: 'create',
        path: 'notes.txt',
        file_text: 'one   \ntwo\t\n',
        security_risk: 'LOW',
        summary: 'w',
      },
    };
    const env = {
      ...(await fx.startLlm(oneCall('bash-format', 'write notes', create))),
      ...userHooks(fx, {
        PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: hook }] }],
      }),
    };
    const r = await runCli(['run', '--workspace', ws, '--confirm', 'never', '--task', 'write notes'], {
      env,
    });
    assert.equal(r.code, 0, printed(r));
    assert.equal(readFileSync(join(ws, 'notes.txt'), 'utf8'), 'one\ntwo\n');
    assert.match(await firstResult(ws), /formatted .*notes\.txt/);
  });

  it('a changed repository hook is asked about again at a terminal; answered yes, it runs', async () => {
    const ws = fx.tmp();
    const marks = fx.tmp('logbook-hook-marks-');
    const write = (mark: string) => {
      mkdirSync(join(ws, '.claude'), { recursive: true });
      writeFileSync(
        join(ws, '.claude', 'settings.json'),
        JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `touch ${mark}` }] }],
          },
        }),
      );
    };
    const first = join(marks, 'first');
    write(first);
    const env = {
      ...(await fx.startLlm(oneCall('repo-yes', 'look', terminalCall('c_l', 'ls')))),
      ...userHooks(fx, {}),
    };
    assert.equal((await runCli(['hooks', 'accept', '--workspace', ws], { env })).code, 0);
    const second = join(marks, 'second');
    write(second);
    const asked = await runCliAtTerminal(
      ['run', '--workspace', ws, '--confirm', 'never', '--task', 'look'],
      { ...env, ...fx.env() },
      ['y'],
    );
    assert.equal(asked.code, 0, asked.output);
    assert.match(asked.output, new RegExp(`touch ${second}[\\s\\S]*Run these hooks`));
    assert.match(asked.output, /Accepted the hooks of \.claude\/settings\.json/);
    assert.ok(existsSync(second), 'the accepted hook did not run');
    assert.equal(existsSync(first), false);
  });
});
