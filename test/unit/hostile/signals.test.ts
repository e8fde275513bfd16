// A model that runs a long command, and a CLI that is stopped under it: SIGTERM (timeout, systemd),
// SIGHUP (a closed terminal) and kill -9. The real CLI runs as a child process against the
// scripted model. After a signal the command's whole process group is gone, the log records the
// stop and nothing printed is missing from it. After kill -9 readers say paused/interrupted, never
// running, and the action left in doubt runs again or is skipped only when the user says so.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { jsonLines, printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall, readLogJson } from '../cli/fixtures';

/**
 * Appends a line to runs.log each time it starts; leaves the shell's pid, a background child's
 * (which ignores Ctrl+C, as background jobs of a shell without job control do) and the foreground
 * child's; sleeps as many seconds as the file `delay` says; touches `marker` only if never stopped.
 */
const LONG_COMMAND =
  'echo run >> runs.log; echo $$ > shell.pid; sleep 300 & echo $! > bg.pid; ' +
  "sh -c 'echo $$ > fg.pid; exec sleep $(cat delay)'; touch marker";

const PID_FILES = ['shell.pid', 'bg.pid', 'fg.pid'];

type Json = Record<string, unknown>;

describe('hostile model: signals and kills of the CLI during a tool call', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  /**
   * These read the pids the shell writes, which only mean something outside a PID namespace: the
   * shell runs unsandboxed here (the sandbox's own stop is tested in test/unit/cli/sandbox.test.ts).
   */
  const startLlm = async (scenario: Parameters<CliFixture['startLlm']>[0]) => ({
    ...(await fx.startLlm(scenario)),
    LOGBOOK_SANDBOX: 'off',
  });
  /** Process groups of shells a killed CLI left behind: no test leaves them running. */
  const orphans: number[] = [];
  afterEach(async () => {
    for (const pid of orphans.splice(0)) killGroup(pid);
    await fx.cleanup();
  });

  function workspace(delaySeconds: number): string {
    const ws = fx.tmp();
    writeFileSync(join(ws, 'delay'), `${delaySeconds}\n`);
    return ws;
  }

  /** Sends `signal` to the CLI once the long command's foreground child has started. */
  function signalWhenStarted(ws: string, signal: NodeJS.Signals) {
    return (child: ChildProcess) => {
      const poll = setInterval(() => {
        if (!existsSync(join(ws, 'fg.pid')) || readFileSync(join(ws, 'fg.pid'), 'utf8').trim() === '') return;
        clearInterval(poll);
        child.kill(signal);
      }, 25);
      child.once('exit', () => clearInterval(poll));
    };
  }

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal}: pauses, stops the command's process group, records it, and can be continued`, async () => {
      const env = await startLlm({
        name: `hostile-${signal}`,
        turns: [
          {
            match: { lastContentIncludes: 'long command' },
            reply: { toolCalls: [terminalCall('call_long', LONG_COMMAND)] },
          },
          { match: { lastContentIncludes: 'go on' }, reply: { content: 'Continued after the stop.' } },
        ],
      });
      const ws = workspace(30);
      const store = join(fx.tmp(), 'conv');
      const args = ['--workspace', ws, '--store', store, '--confirm', 'never', '--json'];
      const r = await runCli(['run', ...args, '--task', 'run the long command'], {
        env,
        onSpawn: signalWhenStarted(ws, signal),
      });
      orphans.push(Number(readFileSync(join(ws, 'shell.pid'), 'utf8')));
      assert.equal(r.code, 128 + constants.signals[signal], printed(r));

      // Nothing the command started outlives the CLI, the background child included.
      for (const f of PID_FILES) {
        const pid = Number(readFileSync(join(ws, f), 'utf8'));
        assert.ok(await gone(pid), `${f} (pid ${pid}) still runs after ${signal}\n${printed(r)}`);
      }
      await new Promise((res) => setTimeout(res, 300));
      assert.ok(!existsSync(join(ws, 'marker')), 'the command list did not go on after the stop');

      // The log holds every event printed, in order, and records the stop and the pause.
      const printedIds = jsonLines(r).map((e) => e.id);
      const logged = await readLogJson(store);
      assert.deepEqual(
        logged.map((e) => e.id),
        printedIds,
        'every printed event is in the log',
      );
      const observation = logged.find((e) => e.kind === 'ObservationEvent' && e.tool_call_id === 'call_long');
      assert.equal(
        (observation?.observation as Json | undefined)?.exit_code,
        130,
        'the command was stopped with Ctrl+C while the tool waited, and the log says so',
      );
      assert.ok(logged.some((e) => e.kind === 'PauseEvent'));

      const show = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Json;
      assert.equal(show.status, 'paused');
      assert.equal(show.interrupted, null, 'the log itself says paused: the stop was recorded');
      assert.deepEqual(show.in_doubt, [], 'nothing is left in doubt after a clean stop');

      const next = await runCli(['run', ...args, '--task', 'go on'], { env });
      assert.equal(next.code, 0, printed(next));
      assert.equal(
        readFileSync(join(ws, 'runs.log'), 'utf8'),
        'run\n',
        'the stopped command is not run again',
      );
    });
  }

  it('a second SIGTERM quits at once, and still takes the whole process group with it', async () => {
    const env = await startLlm({
      name: 'hostile-sigterm-twice',
      turns: [
        {
          match: { lastContentIncludes: 'long command' },
          // The foreground child ignores Ctrl+C, so the first stop waits for it.
          reply: {
            toolCalls: [terminalCall('call_long', LONG_COMMAND.replace("sh -c '", 'sh -c \'trap "" INT; '))],
          },
        },
      ],
    });
    const ws = workspace(30);
    const store = join(fx.tmp(), 'conv');
    const started = Date.now();
    const r = await runCli(
      ['run', '--workspace', ws, '--store', store, '--confirm', 'never', '--task', 'run the long command'],
      {
        env,
        onSpawn: (child) => {
          signalWhenStarted(ws, 'SIGTERM')(child);
          const poll = setInterval(() => {
            if (child.exitCode !== null || !existsSync(join(ws, 'fg.pid'))) return;
            clearInterval(poll);
            setTimeout(() => child.kill('SIGTERM'), 200);
          }, 25);
          child.once('exit', () => clearInterval(poll));
        },
      },
    );
    orphans.push(Number(readFileSync(join(ws, 'shell.pid'), 'utf8')));
    assert.equal(r.code, 143, printed(r));
    assert.ok(Date.now() - started < 15_000, 'it did not wait for the command');
    for (const f of PID_FILES) {
      const pid = Number(readFileSync(join(ws, f), 'utf8'));
      assert.ok(await gone(pid), `${f} (pid ${pid}) still runs after a second SIGTERM\n${printed(r)}`);
    }
  });

  /**
   * Runs the long command under the CLI and kills the CLI with SIGKILL while it runs, then stops
   * what the dead CLI left running (as a user would). Returns the workspace, store and the action.
   */
  async function killedDuringToolCall(nextTurn: { toolResultIncludes: string; content: string }) {
    const env = await startLlm({
      name: 'hostile-kill-9',
      turns: [
        {
          match: { lastContentIncludes: 'long command' },
          reply: { toolCalls: [terminalCall('call_long', LONG_COMMAND)] },
        },
        {
          match: { toolResultIncludes: nextTurn.toolResultIncludes },
          reply: { content: nextTurn.content },
        },
      ],
    });
    const ws = workspace(30);
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(
      ['run', '--workspace', ws, '--store', store, '--confirm', 'never', '--task', 'run the long command'],
      { env, onSpawn: signalWhenStarted(ws, 'SIGKILL') },
    );
    assert.equal(r.code, null, printed(r));
    orphans.push(Number(readFileSync(join(ws, 'shell.pid'), 'utf8')));

    // Read-only readers find no live writer: interrupted, not running; the action is in doubt.
    const text = await runCli(['show', store]);
    assert.equal(text.code, 0, printed(text));
    const statusLine = text.lines.find((l) => /^\s+status\s/.test(l)) ?? '';
    assert.match(statusLine, /paused/, printed(text));
    assert.match(statusLine, /interrupted: the process that ran it is gone/);
    assert.doesNotMatch(text.stdout, /running/);
    const json = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Json;
    assert.equal(json.status, 'paused');
    assert.match(String(json.interrupted), /the process that ran it is gone/);
    const action = (await readLogJson(store)).find((e) => e.kind === 'ActionEvent')!;
    assert.deepEqual(json.in_doubt, [action.id]);
    assert.match(text.stdout, /logbook resolve/, 'show says how to decide');

    // The user stops what the dead CLI left running before deciding.
    for (const pid of orphans.splice(0)) killGroup(pid);

    // Without a decision nothing continues, and the refusal says how to decide.
    const refused = await runCli(
      ['run', '--workspace', ws, '--store', store, '--confirm', 'never', '--task', 'go on'],
      { env },
    );
    assert.equal(refused.code, 1, printed(refused));
    assert.match(refused.stderr, /logbook resolve/);
    const approve = await runCli(['approve', store], { env });
    assert.equal(approve.code, 1, printed(approve));
    assert.match(approve.stderr, /logbook resolve/);
    assert.equal(readFileSync(join(ws, 'runs.log'), 'utf8'), 'run\n', 'it was never run again unasked');
    return { env, ws, store, action };
  }

  it('kill -9, then resolve --skip: the action is answered as skipped, never run again, and the run goes on', async () => {
    const { env, ws, store, action } = await killedDuringToolCall({
      toolResultIncludes: 'skipped after a crash',
      content: 'Understood, it was skipped.',
    });
    const r = await runCli(['resolve', store, '--skip', '--json'], { env });
    assert.equal(r.code, 0, printed(r));
    assert.equal(readFileSync(join(ws, 'runs.log'), 'utf8'), 'run\n');
    const logged = await readLogJson(store);
    const answer = logged.find((e) => e.kind === 'AgentErrorEvent' && e.tool_call_id === 'call_long');
    assert.match(String(answer?.error), /skipped after a crash by the user/);
    assert.ok(!logged.some((e) => e.kind === 'ObservationEvent' && e.action_id === action.id));
    const show = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Json;
    assert.equal(show.status, 'finished');
    assert.deepEqual(show.in_doubt, []);
  });

  it('kill -9, then resolve --rerun: the action runs again, once, and the run goes on', async () => {
    const { env, ws, store, action } = await killedDuringToolCall({
      toolResultIncludes: 'exit code 0',
      content: 'It ran again and finished.',
    });
    writeFileSync(join(ws, 'delay'), '0\n');
    const r = await runCli(['resolve', store, '--rerun', '--json'], { env });
    assert.equal(r.code, 0, printed(r));
    assert.equal(readFileSync(join(ws, 'runs.log'), 'utf8'), 'run\nrun\n', 'run once more, not twice');
    const logged = await readLogJson(store);
    const observation = logged.find((e) => e.kind === 'ObservationEvent' && e.action_id === action.id);
    assert.equal((observation?.observation as Json | undefined)?.exit_code, 0);
    const show = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Json;
    assert.equal(show.status, 'finished');
    assert.deepEqual(show.in_doubt, []);
    orphans.push(Number(readFileSync(join(ws, 'shell.pid'), 'utf8')));
  });

  it('resolve is refused when nothing is in doubt and needs exactly one of --rerun and --skip', async () => {
    const env = await startLlm({
      name: 'hostile-resolve-usage',
      turns: [{ reply: { content: 'Done.' } }],
    });
    const ws = workspace(0);
    const store = join(fx.tmp(), 'conv');
    const done = await runCli(['run', '--workspace', ws, '--store', store, '--task', 'hello'], { env });
    assert.equal(done.code, 0, printed(done));
    const nothing = await runCli(['resolve', store, '--skip'], { env });
    assert.equal(nothing.code, 1, printed(nothing));
    assert.match(nothing.stderr, /nothing in doubt/i);
    const neither = await runCli(['resolve', store], { env });
    assert.equal(neither.code, 1, printed(neither));
    assert.match(neither.stderr, /--rerun or --skip/);
    const both = await runCli(['resolve', store, '--rerun', '--skip'], { env });
    assert.equal(both.code, 1, printed(both));
  });
});

/** True once `pid` has exited (a zombie nobody has reaped yet counts as exited), waiting up to 3 s. */
async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 3_000; waited += 50) {
    if (!alive(pid)) return true;
    await new Promise((res) => setTimeout(res, 50));
  }
  return !alive(pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function killGroup(pid: number): void {
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
