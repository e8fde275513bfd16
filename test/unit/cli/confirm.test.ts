import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture, onlyConversationDir, terminalCall } from './fixtures';

describe('logbook run --confirm, show, approve, reject (a new process each)', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('--confirm always exits 2; show reports the pending action; approve runs it and exits 0', async () => {
    const env = await fx.startLlm({
      name: 'cli-approve',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: { toolCalls: [terminalCall('call_note', 'echo approved > note.txt && echo wrote note')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'wrote note' },
          reply: { content: 'Note written.' },
        },
      ],
    });
    const ws = fx.tmp();
    const first = await runCli(['run', '--workspace', ws, '--task', 'write a note', '--confirm', 'always'], {
      env,
    });
    assert.equal(first.code, 2, printed(first));
    assert.ok(!existsSync(join(ws, 'note.txt')), 'nothing runs before approval');
    const dir = onlyConversationDir(ws);
    assert.match(first.stdout, /logbook approve /);

    const show = await runCli(['show', dir, '--json']);
    assert.equal(show.code, 0, printed(show));
    const state = JSON.parse(show.stdout) as Record<string, unknown>;
    assert.equal(state.status, 'waiting_for_confirmation');
    assert.equal(state.title, 'write a note');
    assert.ok(typeof state.id === 'string' && state.id !== '');
    assert.ok((state.event_count as number) > 3);
    assert.deepEqual(Object.keys(state.metrics as object).sort(), ['byUsage', 'total']);
    assert.deepEqual(state.tasks, []);
    const pending = state.pending_actions as Record<string, unknown>[];
    assert.equal(pending.length, 1);
    assert.equal(pending[0]!.tool, 'terminal');
    assert.equal(pending[0]!.summary, 'echo approved > note.txt && echo wrote note');
    assert.match(pending[0]!.id as string, /^[0-9a-f-]{36}$/);

    const approve = await runCli(['approve', dir, '--json'], { env });
    assert.equal(approve.code, 0, printed(approve));
    assert.equal(readFileSync(join(ws, 'note.txt'), 'utf8'), 'approved\n');
    const events = jsonLines(approve);
    const observation = events.find((e) => e.kind === 'ObservationEvent');
    assert.equal(observation?.action_id, pending[0]!.id);
    assert.equal(events.at(-1)?.kind, 'MessageEvent');

    const after = JSON.parse((await runCli(['show', dir, '--json'])).stdout) as Record<string, unknown>;
    assert.equal(after.status, 'finished');
    assert.deepEqual(after.pending_actions, []);
    // Nothing left to approve: a clear failure, not a silent success.
    const again = await runCli(['approve', dir], { env });
    assert.equal(again.code, 1, printed(again));
    assert.match(again.stderr, /not waiting for confirmation/);
  });

  it('reject --reason: the agent reads the reason and takes another way (risky mode by default)', async () => {
    const env = await fx.startLlm({
      name: 'cli-reject',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: { toolCalls: [terminalCall('call_rm', 'rm -rf build', 'HIGH')] },
        },
        {
          note: 'the rejection reason reaches the model as the tool result',
          match: { lastRole: 'tool', toolResultIncludes: 'keep the build folder' },
          reply: {
            content: 'Understood, listing it instead.',
            toolCalls: [terminalCall('call_ls', 'ls build')],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'artifact.bin' },
          reply: { content: 'Left build alone.' },
        },
      ],
    });
    const ws = fx.tmp();
    mkdirSync(join(ws, 'build'));
    writeFileSync(join(ws, 'build', 'artifact.bin'), 'x');
    const first = await runCli(['run', '--workspace', ws, '--task', 'clean up'], { env });
    assert.equal(first.code, 2, printed(first));
    assert.ok(first.lines.includes('[agent] terminal: rm -rf build (risk HIGH)'), printed(first));
    const dir = onlyConversationDir(ws);

    const missingReason = await runCli(['reject', dir], { env });
    assert.equal(missingReason.code, 1);
    assert.match(missingReason.stderr, /--reason/);

    const reject = await runCli(['reject', dir, '--reason', 'keep the build folder, just list it'], { env });
    assert.equal(reject.code, 0, printed(reject));
    assert.ok(
      reject.lines.includes('[user] rejected terminal: keep the build folder, just list it'),
      printed(reject),
    );
    assert.ok(reject.lines.includes('[agent] terminal: ls build (risk LOW)'), printed(reject));
    assert.ok(existsSync(join(ws, 'build', 'artifact.bin')), 'the rejected command never ran');
    assert.equal(fx.llm!.remainingTurns(), 0);
  });

  it('show reads a conversation while its agent runs, without taking the writer lock; a second writer is refused', async () => {
    const env = await fx.startLlm({
      name: 'cli-held',
      // The model answers only when released: show and approve run while the agent waits inside
      // its LLM call, however slow the machine is.
      turns: [{ reply: { content: 'Answered once released.', holdUntilReleased: 'answer' } }],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const running = runCli(['run', '--workspace', ws, '--task', 'take your time', '--store', store], { env });
    const deadline = Date.now() + 30_000;
    while (fx.llm!.completionBodies().length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(fx.llm!.completionBodies().length, 1, 'the agent is in its LLM call');
    const show = await runCli(['show', store, '--json']);
    assert.equal(show.code, 0, printed(show));
    assert.equal((JSON.parse(show.stdout) as { status: string }).status, 'running');
    // A second writer is turned away with a clear message instead of corrupting the log.
    const approve = await runCli(['approve', store], { env });
    assert.equal(approve.code, 1, printed(approve));
    assert.match(approve.stderr, /is in use/);
    fx.llm!.release('answer');
    const run = await running;
    assert.equal(run.code, 0, printed(run));
    assert.ok(run.lines.includes('[agent] Answered once released.'), printed(run));
  });
});
