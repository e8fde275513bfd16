// Worktree tasks, the remaining points, through the real CLI, real git, the real sandbox and the
// scripted model: the setup step is in the task's signed log as a command of the user's (an action
// and its observation, in act and in plan mode), shown by `show`, read by the model as an answered
// call, exported as valid OpenHands SDK events; a task whose process is alive but has recorded
// nothing yet, or runs its setup, is listed as starting or setting up, never as crashed.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { exportProblems } from '../cli/export-contract';
import { CliFixture, readLogJson, terminalCall } from '../cli/fixtures';
import { createCall, finishCall, makeRepo } from '../cli/worktree-fixtures';

type Json = Record<string, unknown>;

describe('worktree tasks: the setup step as an action, and a task that is starting (issue 43)', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  const bases: string[] = [];
  afterEach(async () => {
    await fx.cleanup();
    for (const b of bases.splice(0)) rmSync(b, { recursive: true, force: true });
  });

  function places() {
    const base = outsideFolder('task-rest-');
    bases.push(base);
    const repo = makeRepo(join(base, 'repo'), { 'README.md': '# project\n' });
    return { base, repo, data: join(base, 'data') };
  }

  const tasks = async (repo: string, env: Record<string, string>): Promise<Json[]> => {
    const r = await runCli(['tasks', '--json'], { cwd: repo, env });
    assert.equal(r.code, 0, printed(r));
    return (JSON.parse(r.stdout) as { tasks: Json[] }).tasks;
  };

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: the setup step is a user's terminal action and its observation, shown, read by the model, exported`, async () => {
      const { repo, data } = places();
      const env = {
        ...(await fx.startLlm({
          name: `setup-${mode}`,
          turns:
            mode === 'act'
              ? [
                  { reply: { toolCalls: [createCall('call_0', 'hello.txt', 'hello\n')] } },
                  { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
                ]
              : [{ reply: { toolCalls: [finishCall()] } }],
        })),
        LOGBOOK_WORKTREES_DIR: data,
        LOGBOOK_WORKTREES_SETUP: 'echo setup-ran > setup.txt; pwd',
      };
      const r = await runCli(
        ['run', '--worktree', `setup-${mode}`, 'Write a greeting', '--confirm', 'never', '--mode', mode],
        { cwd: repo, env },
      );
      assert.equal(r.code, 0, printed(r));
      const [task] = await tasks(repo, env);
      const worktree = task!.worktree as string;
      const log = task!.log as string;
      assert.equal(readFileSync(join(worktree, 'setup.txt'), 'utf8'), 'setup-ran\n');

      const events = await readLogJson(log);
      assert.equal(
        events.filter((e) => e.key === 'worktree_setup').length,
        0,
        'still a state update of its own',
      );
      const actions = events.filter((e) => e.kind === 'ActionEvent' && e.source === 'user');
      assert.equal(actions.length, 1, 'one setup action');
      const action = actions[0]!;
      assert.equal(action.tool_name, 'terminal');
      assert.equal(action.summary, 'Worktree setup (worktrees.setup)');
      assert.equal((action.action as Json).command, 'echo setup-ran > setup.txt; pwd');
      const observation = events.find((e) => e.kind === 'ObservationEvent' && e.action_id === action.id)!;
      assert.ok(observation, 'no observation answers the setup action');
      const payload = observation.observation as Json;
      assert.equal(payload.exit_code, 0);
      assert.equal(payload.is_error, false);
      const text = (payload.content as { text: string }[]).map((c) => c.text).join('');
      assert.match(text, /setup step from worktrees\.setup, run by Logbook/);
      assert.ok(text.includes(worktree), text);
      // After the task's message, before the agent's first request.
      const at = (e: Json) => events.indexOf(e);
      const message = events.find((e) => e.kind === 'MessageEvent' && e.source === 'user')!;
      assert.ok(at(message) < at(action) && at(action) < at(observation));
      const first = fx.llm!.completionBodies()[0]!.messages as Json[];
      const call = first.find((m) => m.role === 'assistant' && Array.isArray(m.tool_calls))!;
      assert.ok(call, 'the model did not see the setup call');
      const answer = first.find((m) => m.role === 'tool')!;
      assert.match(String(answer.content), /setup step from worktrees\.setup[\s\S]*\[Exit code 0\]/);

      // Printed as it runs, like any command, and `show` at the action lists it as a command of the log.
      assert.match(
        r.stdout,
        /\[user\] Worktree setup \(worktrees\.setup\): echo setup-ran > setup\.txt; pwd/,
      );
      assert.match(r.stdout, /\[env\] exit 0: \[The worktree's setup step/);
      const show = await runCli(['show', `setup-${mode}`, '--at', action.id as string], { cwd: repo, env });
      assert.equal(show.code, 0, printed(show));
      assert.match(show.stdout, /terminal: Worktree setup \(worktrees\.setup\)/);
      const verify = await runCli(['verify', log], { cwd: repo, env });
      assert.equal(verify.code, 0, printed(verify));
      assert.deepEqual((await exportProblems(log))?.problems, []);
    });
  }

  it('a failing setup step: its observation says the exit code and is an error; the model is never asked', async () => {
    const { repo, data } = places();
    const env = {
      ...(await fx.startLlm({ name: 'setup-fails', turns: [{ reply: { toolCalls: [finishCall()] } }] })),
      LOGBOOK_WORKTREES_DIR: data,
      LOGBOOK_WORKTREES_SETUP: 'echo no-deps; exit 3',
    };
    const r = await runCli(['run', '--worktree', 'broken', 'Write a greeting', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 1, printed(r));
    assert.equal(fx.llm!.completionBodies().length, 0, 'the model was asked');
    const [task] = await tasks(repo, env);
    const events = await readLogJson(task!.log as string);
    const payload = events.find((e) => e.kind === 'ObservationEvent')!.observation as Json;
    assert.equal(payload.exit_code, 3);
    assert.equal(payload.is_error, true);
    assert.match(r.stdout, /\[env\] exit 3: \[The worktree's setup step/);
  });

  /**
   * Runs `logbook run --worktree NAME` and, once `ready()` holds, reads `logbook tasks` while its
   * process lives, then kills it with kill -9; gives the status seen alive and the one after.
   */
  async function statusAliveThenKilled(
    repo: string,
    env: Record<string, string>,
    name: string,
    ready: () => boolean,
  ): Promise<{ alive: Json; killed: Json; run: Awaited<ReturnType<typeof runCli>> }> {
    let alive: Json | undefined;
    let failed: unknown;
    const watch = (child: ChildProcess) => {
      const poll = setInterval(() => {
        if (!ready()) return;
        clearInterval(poll);
        tasks(repo, env)
          .then((list) => (alive = list.find((t) => t.name === name)))
          .catch((err: unknown) => (failed = err))
          .finally(() => child.kill('SIGKILL'));
      }, 25);
      child.once('exit', () => clearInterval(poll));
    };
    const run = await runCli(['run', '--worktree', name, '--confirm', 'never', 'be slow'], {
      cwd: repo,
      env,
      onSpawn: watch,
    });
    if (failed) throw failed;
    assert.ok(alive, `the task was not listed while its process ran\n${printed(run)}`);
    const killed = (await tasks(repo, env)).find((t) => t.name === name)!;
    return { alive, killed, run };
  }

  it('a task whose log holds nothing yet (its worktree being made) is starting while its process lives, crashed once killed', async () => {
    const { base, repo, data } = places();
    // git runs post-checkout in the new worktree: the task's record is written, its log not yet.
    const mark = join(base, 'checkout-started');
    const hook = join(repo, '.git', 'hooks', 'post-checkout');
    writeFileSync(hook, `#!/bin/sh\nexec >/dev/null 2>&1\ntouch '${mark}'\nsleep 3\n`);
    chmodSync(hook, 0o755);
    const env = {
      ...(await fx.startLlm({ name: 'never-asked', turns: [{ reply: { toolCalls: [finishCall()] } }] })),
      LOGBOOK_WORKTREES_DIR: data,
    };
    const { alive, killed, run } = await statusAliveThenKilled(repo, env, 'making', () => existsSync(mark));
    assert.equal(run.code, null, printed(run));
    assert.equal(alive.status, 'starting');
    assert.equal(alive.waiting_for_you, false);
    assert.equal(killed.status, 'crashed');
    assert.equal(killed.waiting_for_you, true);
    const text = await runCli(['tasks'], { cwd: repo, env });
    assert.match(text.stdout, /making\s+crashed/);
  });

  it('a task running its setup step is setting up while its process lives; killed, it is crashed with the setup in doubt', async () => {
    const { repo, data } = places();
    const env = {
      ...(await fx.startLlm({
        name: 'after-setup',
        turns: [
          { reply: { toolCalls: [terminalCall('call_1', 'echo hi')] } },
          { reply: { toolCalls: [finishCall()] } },
        ],
      })),
      LOGBOOK_WORKTREES_DIR: data,
      LOGBOOK_WORKTREES_SETUP: 'touch setup-started; sleep 20',
    };
    const started = () => {
      const keys = existsSync(data) ? readdirSync(data) : [];
      return keys.some((k) => existsSync(join(data, k, 'deps', 'setup-started')));
    };
    const { alive, killed } = await statusAliveThenKilled(repo, env, 'deps', started);
    assert.equal(alive.status, 'setting up');
    assert.equal(alive.waiting_for_you, false);
    assert.equal(killed.status, 'crashed');
    const shown = JSON.parse((await runCli(['show', 'deps', '--json'], { cwd: repo, env })).stdout) as Json;
    assert.equal((shown.in_doubt as unknown[]).length, 1, JSON.stringify(shown));
    assert.equal(fx.llm!.completionBodies().length, 0, 'the model was asked');
    // Decided like any action in doubt: skipped, the agent goes on from there.
    const resolved = await runCli(['resolve', 'deps', '--skip'], { cwd: repo, env });
    assert.equal(resolved.code, 0, printed(resolved));
    assert.equal((await tasks(repo, env))[0]!.status, 'finished');
  });
});
