// A hook's `continue: false` (docs/HOOKS.md), through the real CLI with real hook programs and the
// scripted model: whichever event it answers, the agent stops after that step, no further action
// runs (the model's other calls are answered "not run"), and the hook's `stopReason` is the run's
// error, printed by `logbook run` and `logbook show`.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';
import type { Scenario } from '../../support/llm-server';

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

/** What the model read for each of its calls, by call id. */
async function answers(ws: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readLogJson(onlyConversationDir(ws))) {
    if (e['kind'] === 'ObservationEvent')
      out.set(String(e['tool_call_id']), JSON.stringify((e['observation'] as Json)['content']));
    if (e['kind'] === 'AgentErrorEvent') out.set(String(e['tool_call_id']), String(e['error']));
  }
  return out;
}

async function errors(ws: string): Promise<Json[]> {
  return (await readLogJson(onlyConversationDir(ws))).filter((e) => e['kind'] === 'ConversationErrorEvent');
}

/** Two reads in one reply, then (if the agent went on) a third call and the end. */
function twoReads(name: string): Scenario {
  return {
    name,
    turns: [
      {
        match: { lastRole: 'user', lastContentIncludes: 'look' },
        reply: { toolCalls: [terminalCall('c_one', 'cat one.txt'), terminalCall('c_two', 'cat two.txt')] },
      },
      { match: { lastRole: 'tool' }, reply: { toolCalls: [terminalCall('c_three', 'cat one.txt')] } },
      { match: { lastRole: 'tool' }, reply: { content: 'done' } },
    ],
  };
}

/** A hook that answers `continue: false` for the action on one.txt, and nothing otherwise. */
const STOP_BASH = `#!/usr/bin/env bash
input=$(cat)
if printf '%s' "$input" | grep -q 'one.txt'; then
  echo '{"continue": false, "stopReason": "the build is red, fix it first", "systemMessage": "stopping"}'
fi
exit 0
`;
const STOP_NODE = `#!/usr/bin/env node
let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  if (!s.includes('one.txt')) return;
  process.stdout.write(JSON.stringify({ continue: false, stopReason: 'the build is red, fix it first' }));
});
`;

describe('hostile: hooks that stop the agent (continue: false)', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  function setUp(): { ws: string; hooksDir: string } {
    const ws = fx.tmp();
    writeFileSync(join(ws, 'one.txt'), 'first file\n');
    writeFileSync(join(ws, 'two.txt'), 'second file\n');
    return { ws, hooksDir: fx.tmp('logbook-hook-scripts-') };
  }

  async function expectStopped(ws: string, env: Record<string, string>, out: string): Promise<void> {
    assert.match(out, /hook_stop: the hook `[^`]*stop\.(sh|js)` \(\w+\) stopped the agent: the build is red/);
    // Nothing after the stop: the second call of the reply did not run, the model was not asked again.
    const read = await answers(ws);
    assert.match(read.get('c_two') ?? '', /"?Not run: the hook .* stopped the agent: the build is red/);
    assert.doesNotMatch(read.get('c_two') ?? '', /second file/);
    assert.equal(read.has('c_three'), false);
    assert.equal(fx.llm!.completionBodies().length, 1);
    const [error] = await errors(ws);
    assert.equal(error!['code'], 'hook_stop');
    const shown = await runCli(['show', onlyConversationDir(ws)], { env });
    assert.match(shown.stdout, /hook_stop: the hook .* stopped the agent: the build is red/, printed(shown));
    assert.match(shown.stdout, /\[stopped the agent: the build is red, fix it first\]/, printed(shown));
  }

  for (const mode of MODES) {
    it(`a PostToolUse hook (bash) with continue: false: the action ran, nothing after it (${mode} mode)`, async () => {
      const { ws, hooksDir } = setUp();
      const hook = script(hooksDir, 'stop.sh', STOP_BASH);
      const env = {
        ...(await fx.startLlm(twoReads('post-stop'))),
        ...userHooks(fx, { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] }),
      };
      const r = await runCli(
        ['run', '--workspace', ws, '--confirm', 'never', '--mode', mode, '--task', 'look'],
        {
          env,
        },
      );
      assert.notEqual(r.code, 0, printed(r));
      assert.match((await answers(ws)).get('c_one') ?? '', /first file/);
      await expectStopped(ws, env, r.stdout + r.stderr);
    });

    it(`a PreToolUse hook (node) with continue: false: its action does not run either (${mode} mode)`, async () => {
      const { ws, hooksDir } = setUp();
      const hook = script(hooksDir, 'stop.js', STOP_NODE);
      const env = {
        ...(await fx.startLlm(twoReads('pre-stop'))),
        ...userHooks(fx, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] }),
      };
      const r = await runCli(
        ['run', '--workspace', ws, '--confirm', 'never', '--mode', mode, '--task', 'look'],
        {
          env,
        },
      );
      assert.notEqual(r.code, 0, printed(r));
      const one = (await answers(ws)).get('c_one') ?? '';
      assert.match(one, /"?Not run: the hook .*stop\.js` \(PreToolUse\) stopped the agent/);
      assert.doesNotMatch(one, /first file/);
      await expectStopped(ws, env, r.stdout + r.stderr);
    });
  }

  it('a UserPromptSubmit hook with continue: false stops the message, with its stopReason', async () => {
    const { ws, hooksDir } = setUp();
    const hook = script(
      hooksDir,
      'closed.sh',
      `#!/usr/bin/env bash\ncat >/dev/null\necho '{"continue": false, "stopReason": "the repository is frozen for the release"}'\n`,
    );
    const env = {
      ...(await fx.startLlm({ name: 'prompt-stop', turns: [] })),
      ...userHooks(fx, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook }] }] }),
    };
    const r = await runCli(['run', '--workspace', ws, '--task', 'look'], { env });
    assert.notEqual(r.code, 0, printed(r));
    assert.match(r.stderr, /did not let this message through: the repository is frozen for the release/);
    assert.equal(fx.llm!.completionBodies().length, 0);
  });

  it('a Stop hook with continue: false wins over its own block: the agent is not sent on', async () => {
    const { ws, hooksDir } = setUp();
    const hook = script(
      hooksDir,
      'enough.sh',
      `#!/usr/bin/env bash\ncat >/dev/null\necho '{"continue": false, "stopReason": "enough for today", "decision": "block", "reason": "go on"}'\n`,
    );
    const env = {
      ...(await fx.startLlm({
        name: 'stop-stop',
        turns: [
          { match: { lastRole: 'user', lastContentIncludes: 'look' }, reply: { content: 'looked' } },
          { match: { lastRole: 'user', lastContentIncludes: 'go on' }, reply: { content: 'again' } },
        ],
      })),
      ...userHooks(fx, { Stop: [{ hooks: [{ type: 'command', command: hook }] }] }),
    };
    const r = await runCli(['run', '--workspace', ws, '--task', 'look'], { env });
    assert.equal(r.code, 0, printed(r));
    assert.equal(fx.llm!.completionBodies().length, 1);
    assert.match(r.stdout + r.stderr, /\[stopped the agent: enough for today\]/);
  });

  it('a Notification hook with continue: false ends the wait: the waiting action is answered, not run', async () => {
    const { ws, hooksDir } = setUp();
    const hook = script(
      hooksDir,
      'stop.sh',
      `#!/usr/bin/env bash\ncat >/dev/null\necho '{"continue": false, "stopReason": "the build is red, fix it first"}'\n`,
    );
    const env = {
      ...(await fx.startLlm(twoReads('notification-stop'))),
      ...userHooks(fx, { Notification: [{ hooks: [{ type: 'command', command: hook }] }] }),
    };
    const r = await runCli(['run', '--workspace', ws, '--confirm', 'always', '--task', 'look'], { env });
    assert.notEqual(r.code, 0, printed(r));
    assert.match(
      r.stdout + r.stderr,
      /hook_stop: the hook `[^`]*stop\.sh` \(Notification\) stopped the agent/,
    );
    const read = await answers(ws);
    assert.match(read.get('c_one') ?? '', /Not run: the hook .* stopped the agent/);
    assert.doesNotMatch(read.get('c_one') ?? '', /first file/);
    const [error] = await errors(ws);
    assert.equal(error!['code'], 'hook_stop');
  });

  it('a SessionStart hook with continue: false stops the run before the model is asked', async () => {
    const { ws, hooksDir } = setUp();
    const hook = script(
      hooksDir,
      'stop.sh',
      `#!/usr/bin/env bash\ncat >/dev/null\necho '{"continue": false, "stopReason": "the build is red, fix it first"}'\n`,
    );
    const env = {
      ...(await fx.startLlm(twoReads('start-stop'))),
      ...userHooks(fx, { SessionStart: [{ hooks: [{ type: 'command', command: hook }] }] }),
    };
    const r = await runCli(['run', '--workspace', ws, '--task', 'look'], { env });
    assert.notEqual(r.code, 0, printed(r));
    assert.match(
      r.stdout + r.stderr,
      /hook_stop: the hook `[^`]*stop\.sh` \(SessionStart\) stopped the agent/,
    );
    assert.equal(fx.llm!.completionBodies().length, 0);
  });
});
