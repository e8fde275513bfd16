import * as assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { createEvent, type Event } from '../../../src/core/events';
import { SegmentEventStore } from '../../../src/core/log';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture, terminalCall } from './fixtures';

describe('logbook run --store on an existing conversation', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('continues it with a new task in the same workspace, printing only the new events', async () => {
    const env = await fx.startLlm({
      name: 'cli-continue',
      turns: [
        { match: { lastContentIncludes: 'first' }, reply: { content: 'First done.' } },
        { match: { lastContentIncludes: 'second' }, reply: { content: 'Second done.' } },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const a = await runCli(['run', '--workspace', ws, '--task', 'first task', '--store', store, '--json'], {
      env,
    });
    assert.equal(a.code, 0, printed(a));
    const b = await runCli(['run', '--workspace', ws, '--task', 'second task', '--store', store, '--json'], {
      env,
    });
    assert.equal(b.code, 0, printed(b));
    const kinds = jsonLines(b).map((e) => e.kind);
    assert.ok(!kinds.includes('SystemPromptEvent'), 'old events are not printed again');
    const state = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Record<string, unknown>;
    assert.equal(state.title, 'first task');
    assert.equal(state.event_count, jsonLines(a).length + jsonLines(b).length);

    const other = fx.tmp();
    const c = await runCli(['run', '--workspace', other, '--task', 'x', '--store', store], { env });
    assert.equal(c.code, 1);
    assert.match(c.stderr, /belongs to the workspace/);
  });

  it("a continued conversation's shell starts where its last command left it", async () => {
    const env = await fx.startLlm({
      name: 'cli-continue-cwd',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'go into sub' },
          reply: { toolCalls: [terminalCall('call_cd', 'mkdir -p sub && cd sub')] },
        },
        { match: { lastRole: 'tool', toolResultIncludes: '' }, reply: { content: 'In sub now.' } },
        {
          match: { lastRole: 'user', lastContentIncludes: 'where are you' },
          reply: { toolCalls: [terminalCall('call_pwd', 'pwd')] },
        },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const run = (task: string) =>
      runCli(['run', '--workspace', ws, '--task', task, '--store', store, '--confirm', 'never', '--json'], {
        env,
      });
    const a = await run('go into sub');
    assert.equal(a.code, 0, printed(a));
    const b = await run('where are you');
    const pwd = jsonLines(b).find(
      (e) =>
        e.kind === 'ObservationEvent' && (e.observation as { kind?: string }).kind === 'TerminalObservation',
    ) as { observation: { content: { text?: string }[]; metadata: { working_dir: string } } } | undefined;
    assert.ok(pwd, printed(b));
    const printedDir = pwd.observation.content.map((c) => c.text ?? '').join('');
    assert.equal(realpathSync(printedDir.split('\n')[0]!.trim()), realpathSync(join(ws, 'sub')));
    assert.equal(realpathSync(pwd.observation.metadata.working_dir), realpathSync(join(ws, 'sub')));
  });

  it('refuses to continue after a crash left an action in doubt, and never re-runs it', async () => {
    const env = await fx.startLlm({ name: 'cli-crash', turns: [{ reply: { content: 'Done.' } }] });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const a = await runCli(['run', '--workspace', ws, '--task', 'first', '--store', store], { env });
    assert.equal(a.code, 0, printed(a));

    // What a crash between `action_started` and the observation leaves in the log.
    const log = await SegmentEventStore.open<StoredConversationEvent>(store, {
      codec: conversationEventCodec,
    });
    let parent = (await log.get(log.length - 1)).id;
    const append = async (e: Event) => {
      await log.append(e as StoredConversationEvent);
      parent = e.id;
    };
    await append(
      createEvent('ConversationStateUpdateEvent', {
        key: 'execution_status',
        value: 'running',
        parent_id: parent,
      }),
    );
    const command = 'echo ran >> side-effect.txt';
    const action = createEvent('ActionEvent', {
      thought: [],
      action: { kind: 'TerminalAction', command, is_input: false, reset: false },
      tool_name: 'terminal',
      tool_call_id: 'call_x',
      tool_call: {
        id: 'call_x',
        name: 'terminal',
        arguments: JSON.stringify({ command, security_risk: 'LOW' }),
      },
      llm_response_id: 'resp_x',
      security_risk: 'LOW',
      parent_id: parent,
    });
    await append(action);
    await append(
      createEvent('ConversationStateUpdateEvent', {
        key: 'action_started',
        value: { action_id: action.id },
        parent_id: parent,
      }),
    );
    await log.close();

    const b = await runCli(
      ['run', '--workspace', ws, '--task', 'go on', '--store', store, '--confirm', 'never'],
      { env },
    );
    assert.equal(b.code, 1, printed(b));
    assert.match(b.stderr, /started before a crash/);
    assert.ok(!existsSync(join(ws, 'side-effect.txt')), 'the in-doubt action was not re-run');
    const state = JSON.parse((await runCli(['show', store, '--json'])).stdout) as Record<string, unknown>;
    assert.equal(state.status, 'paused');
    assert.deepEqual(state.in_doubt, [action.id]);
  });
});
