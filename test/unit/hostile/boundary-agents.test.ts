// A workspace's agent definition asking for act mode, met by a `--mode plan` run: neither a handoff
// to it nor a delegation to it may change a file. The real CLI runs against the scripted model;
// the definition sits where a cloned repository would put it (`.logbook/agents/`), and confirmation
// is off, so only plan mode stands between the model and the write.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson } from '../cli/fixtures';
import { childDirs, delegateCall, finish, type Json } from '../agents/agents-fixture';

const NARROWED = 'asked for act mode; the conversation is in plan mode, so it runs in plan mode';

const createCall = (id: string) => ({
  id,
  name: 'file_editor',
  arguments: {
    command: 'create',
    path: 'planted.txt',
    file_text: 'written\n',
    security_risk: 'LOW',
    summary: 'plant a file',
  },
});

/** A workspace whose own definitions name `builder`, an act agent with the file editor. */
function workspaceWithBuilder(fx: CliFixture): string {
  const ws = fx.tmp();
  mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
  writeFileSync(
    join(ws, '.logbook', 'agents', 'builder.md'),
    '---\nname: builder\ndescription: Builds things.\ntools: [file_editor, think]\nmode: act\n---\nBuild it.\n',
  );
  return ws;
}

const updates = (log: Json[], key: string): Json[] =>
  log.filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === key);

describe('hostile: a child or a handoff never has more than its parent (scripted model, CLI)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('transfer_to_agent to an act definition keeps a plan-mode run in plan; its create is refused', async () => {
    const ws = workspaceWithBuilder(fx);
    const env = await fx.startLlm({
      name: 'handoff-widen',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'hand it to the builder' },
          reply: {
            toolCalls: [{ id: 'c_t', name: 'transfer_to_agent', arguments: { agent_name: 'builder' } }],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'now handled by the builder agent' },
          reply: { toolCalls: [createCall('c_w')] },
        },
        { match: { lastRole: 'tool' }, reply: finish('c_f', 'could not write') },
      ],
    });
    const r = await runCli(
      ['run', '--workspace', ws, '--mode', 'plan', '--confirm', 'never', '--task', 'hand it to the builder'],
      { env },
    );
    assert.equal(r.code, 0, printed(r));
    assert.ok(!existsSync(join(ws, 'planted.txt')), 'the handed-over agent wrote a file in a plan-mode run');
    const log = await readLogJson(onlyConversationDir(ws));
    assert.deepEqual(
      updates(log, 'agent_mode').map((e) => e.value),
      ['plan'],
      'the conversation never left plan mode',
    );
    const refusal = log.find((e) => e.kind === 'AgentErrorEvent' && e.tool_name === 'file_editor');
    assert.ok(refusal, 'the create was refused');
    assert.match(String(refusal.error), /plan mode/);
    // The model is told, and the log records, what the definition did not get.
    const handoff = updates(log, 'agent_start').map((e) => e.value as Json);
    assert.deepEqual(
      handoff.map((v) => v.narrowed),
      [[NARROWED]],
    );
    const told = log.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'transfer_to_agent');
    assert.match(JSON.stringify(told), /conversation is in plan mode: only read/);
    assert.match(r.stdout, new RegExp(`\\[agent\\] builder \\(main\\) ${NARROWED}`));
  });

  it('delegate to an act definition runs the child in plan mode in a plan-mode run; it creates no file', async () => {
    const ws = workspaceWithBuilder(fx);
    const env = await fx.startLlm({
      name: 'delegate-widen',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'get it built' },
          reply: { toolCalls: [delegateCall('c_d', 'write planted.txt', 'builder')] },
        },
        {
          note: 'the child tries to write',
          match: { lastRole: 'user', lastContentIncludes: 'write planted.txt' },
          reply: { toolCalls: [createCall('c_w')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'plan mode' },
          reply: finish('c_f', 'refused in plan mode'),
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'refused in plan mode' },
          reply: { content: 'Nothing was built.' },
        },
      ],
    });
    const r = await runCli(
      ['run', '--workspace', ws, '--mode', 'plan', '--confirm', 'never', '--task', 'get it built'],
      { env },
    );
    assert.equal(r.code, 0, printed(r));
    assert.ok(!existsSync(join(ws, 'planted.txt')), 'the delegated agent wrote a file in a plan-mode run');
    const dir = onlyConversationDir(ws);
    const [child] = childDirs(dir);
    assert.ok(child, 'the child ran');
    const childLog = await readLogJson(child);
    assert.deepEqual(
      updates(childLog, 'agent_mode').map((e) => e.value),
      ['plan'],
      'the child runs in plan mode',
    );
    const start = updates(await readLogJson(dir), 'agent_start').map((e) => e.value as Json);
    assert.deepEqual(
      start.map((v) => v.narrowed),
      [[NARROWED]],
    );
    const show = await runCli(['show', dir]);
    assert.match(show.stdout, new RegExp(`builder ${NARROWED}`), printed(show));
    assert.equal(fx.llm!.remainingTurns(), 0);
  });
});
