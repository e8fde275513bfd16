// `logbook run --mode plan`: the agent only reads and answers with a plan; a write is refused
// before it runs. The mode is in the log, so a resume keeps it, and `--mode act` on the same
// conversation approves the plan and carries it out.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture, terminalCall } from './fixtures';

const plan = {
  id: 'call_plan',
  name: 'task_tracker',
  arguments: {
    command: 'plan',
    task_list: [{ title: 'Write notes.txt', notes: 'one line', status: 'todo' }],
  },
};
const write = {
  id: 'call_write',
  name: 'file_editor',
  arguments: {
    command: 'create',
    path: 'notes.txt',
    file_text: 'notes\n',
    security_risk: 'LOW',
    summary: 'notes',
  },
};

describe('logbook run --mode plan', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('refuses a write, keeps plan mode across a resume, and --mode act approves the plan', async () => {
    const env = await fx.startLlm({
      name: 'cli-plan',
      turns: [
        {
          match: { lastContentIncludes: 'notes file' },
          reply: { toolCalls: [write, terminalCall('call_ls', 'ls -a')] },
        },
        { match: { toolResultIncludes: 'plan mode' }, reply: { toolCalls: [plan] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Plan: write notes.txt.' } },
        // The resume without --mode: still plan mode, the write refused again.
        {
          match: { lastContentIncludes: 'just do it' },
          reply: { toolCalls: [terminalCall('call_echo', 'echo x > notes.txt')] },
        },
        { match: { toolResultIncludes: 'plan mode' }, reply: { content: 'Still planning.' } },
        // --mode act: the plan is approved and carried out.
        { match: { lastContentIncludes: 'Go ahead with this plan' }, reply: { toolCalls: [write] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const base = ['run', '--workspace', ws, '--store', store, '--confirm', 'never'];

    const a = await runCli([...base, '--mode', 'plan', '--task', 'add a notes file'], { env });
    assert.equal(a.code, 0, printed(a));
    assert.ok(!existsSync(join(ws, 'notes.txt')), 'plan mode did not write');
    assert.match(a.stdout, /\[mode\] plan/);
    assert.match(a.stderr + a.stdout, /Plan ready \(1 step/);
    assert.match(a.stderr + a.stdout, /--mode act/);
    let shown = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Record<string, unknown>;
    assert.equal(shown.mode, 'plan');
    assert.deepEqual(
      (shown.tasks as { title: string }[]).map((t) => t.title),
      ['Write notes.txt'],
    );

    const b = await runCli([...base, '--task', 'just do it', '--json'], { env });
    assert.equal(b.code, 0, printed(b));
    assert.ok(!existsSync(join(ws, 'notes.txt')), 'the resumed run is still in plan mode');
    const refused = jsonLines(b).filter((e) => e.kind === 'AgentErrorEvent');
    assert.equal(refused.length, 1);
    assert.match(String(refused[0]!.error), /plan mode.*`echo x > notes\.txt` is not read-only/s);
    shown = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Record<string, unknown>;
    assert.equal(shown.mode, 'plan');

    const c = await runCli([...base, '--mode', 'act'], { env });
    assert.equal(c.code, 0, printed(c));
    assert.ok(existsSync(join(ws, 'notes.txt')), 'act mode carried out the plan');
    shown = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Record<string, unknown>;
    assert.equal(shown.mode, 'act');
    assert.equal(fx.llm!.remainingTurns(), 0);
  });

  it('rejects an unknown mode, and --mode act without a task on a conversation with no plan', async () => {
    const env = await fx.startLlm({ name: 'cli-plan-usage', turns: [{ reply: { content: 'Hi.' } }] });
    const ws = fx.tmp();
    const bad = await runCli(['run', '--workspace', ws, '--task', 'x', '--mode', 'build'], { env });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--mode must be plan or act/);
    const store = join(fx.tmp(), 'conv');
    assert.equal(
      (await runCli(['run', '--workspace', ws, '--store', store, '--task', 'hello'], { env })).code,
      0,
    );
    const none = await runCli(['run', '--workspace', ws, '--store', store, '--mode', 'act'], { env });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no plan to approve/);
  });
});
