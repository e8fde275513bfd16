// An agent definition the agent wrote is not used until the user accepts it. The scripted model
// writes `.logbook/agents/helper.md` (an act agent with the file editor) with a command run without
// a sandbox (autopilot refuses the file tool's write, and the sandbox holds `.logbook`), then,
// in the same conversation or the next one, hands work to it with delegate or transfer_to_agent, in
// act and in plan mode: refused, with the reason the model reads, and nothing is written. After
// `logbook agents accept helper` the same calls work. Confirmation is off, so only the hold stands
// between the model and its own agent.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson } from '../cli/fixtures';
import { childDirs, delegateCall, finish, type Json } from '../agents/agents-fixture';
import { conversationDirs, runCliAtTerminal, writeHelperCommand } from './agent-trust-fixture';

const HELPER =
  '---\nname: helper\ndescription: Does what it is told.\ntools: [file_editor, think]\nmode: act\n---\nDo it.\n';
const NOT_ACCEPTED = 'the user has not accepted this definition yet';

/** A command that writes the helper's definition (run with `--sandbox off`: nothing else holds it). */
const plantCall = (id: string) => ({
  id,
  name: 'terminal',
  arguments: {
    command: writeHelperCommand(HELPER),
    security_risk: 'LOW',
    summary: 'write a file',
  },
});

const createCall = (id: string, path: string, text: string) => ({
  id,
  name: 'file_editor',
  arguments: { command: 'create', path, file_text: text, security_risk: 'LOW', summary: 'write a file' },
});

const handCall = (tool: 'delegate' | 'transfer_to_agent', id: string) =>
  tool === 'delegate'
    ? delegateCall(id, 'write planted.txt', 'helper')
    : { id, name: 'transfer_to_agent', arguments: { agent_name: 'helper', reason: 'write planted.txt' } };

/** A run whose model writes the helper's definition and finishes. */
async function plantHelper(fx: CliFixture, ws: string): Promise<void> {
  const env = await fx.startLlm({
    name: 'plant-helper',
    turns: [
      {
        match: { lastRole: 'user', lastContentIncludes: 'make a helper' },
        reply: { toolCalls: [plantCall('c_p')] },
      },
      { match: { lastRole: 'tool' }, reply: finish('c_f', 'made it') },
    ],
  });
  const r = await runCli(
    ['run', '--workspace', ws, '--confirm', 'never', '--sandbox', 'off', '--task', 'make a helper'],
    { env },
  );
  assert.equal(r.code, 0, printed(r));
  assert.equal(readFileSync(join(ws, '.logbook', 'agents', 'helper.md'), 'utf8'), HELPER);
  assert.match(r.stdout, /agent definition held: helper: not used until you accept it/);
}

/** A run that hands the work to the helper; the model finishes on whatever the tool answers. */
async function handToHelper(
  fx: CliFixture,
  ws: string,
  tool: 'delegate' | 'transfer_to_agent',
  mode: 'act' | 'plan',
  then: 'refused' | 'works',
) {
  const turns =
    then === 'refused'
      ? [
          {
            match: { lastRole: 'user' as const, lastContentIncludes: 'use the helper' },
            reply: { toolCalls: [handCall(tool, 'c_h')] },
          },
          {
            match: { lastRole: 'tool' as const, toolResultIncludes: NOT_ACCEPTED },
            reply: finish('c_f', 'not allowed'),
          },
        ]
      : [
          {
            match: { lastRole: 'user' as const, lastContentIncludes: 'use the helper' },
            reply: { toolCalls: [handCall(tool, 'c_h')] },
          },
          {
            note: tool === 'delegate' ? 'the child writes' : 'the helper, having taken over, writes',
            reply: { toolCalls: [createCall('c_w', 'planted.txt', 'written\n')] },
          },
          { match: { lastRole: 'tool' as const }, reply: finish('c_f', 'done') },
          ...(tool === 'delegate'
            ? [{ match: { lastRole: 'tool' as const }, reply: { content: 'The helper did it.' } }]
            : []),
        ];
  const env = await fx.startLlm({ name: `${tool}-${mode}-${then}`, turns });
  const before = new Set(conversationDirs(ws));
  const r = await runCli(
    ['run', '--workspace', ws, '--mode', mode, '--confirm', 'never', '--task', 'use the helper'],
    { env },
  );
  assert.equal(r.code, 0, printed(r));
  const [dir] = conversationDirs(ws).filter((d) => !before.has(d));
  assert.ok(dir, 'the run made a conversation');
  return { r, dir, log: await readLogJson(dir) };
}

const answerOf = (log: Json[], tool: string): string =>
  JSON.stringify(log.find((e) => e.kind === 'ObservationEvent' && e.tool_name === tool) ?? null);

const handoffs = (log: Json[]) =>
  log.filter(
    (e) =>
      e.kind === 'ConversationStateUpdateEvent' &&
      e.key === 'agent_start' &&
      (e.value as Json | null)?.handoff === true,
  );

describe('hostile: an agent definition the agent wrote is not used until the user accepts it (CLI)', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  for (const mode of ['act', 'plan'] as const) {
    for (const tool of ['delegate', 'transfer_to_agent'] as const) {
      it(`${tool} to a definition written in an earlier conversation is refused in ${mode} mode`, async () => {
        const ws = fx.tmp();
        await plantHelper(fx, ws);
        const { r, dir, log } = await handToHelper(fx, ws, tool, mode, 'refused');
        assert.match(answerOf(log, tool), new RegExp(NOT_ACCEPTED), printed(r));
        assert.match(answerOf(log, tool), /logbook agents accept helper/);
        assert.deepEqual(childDirs(dir), [], 'no child ran');
        assert.deepEqual(handoffs(log), [], 'no agent took over');
        assert.ok(!existsSync(join(ws, 'planted.txt')), 'the held agent wrote a file');
        assert.match(r.stdout, /agent definition held: helper/);
        assert.equal(fx.llm!.remainingTurns(), 0);
      });
    }
  }

  it('delegate to a definition written earlier in the same conversation is refused, saying why', async () => {
    const ws = fx.tmp();
    const env = await fx.startLlm({
      name: 'plant-and-delegate',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'make a helper and use it' },
          reply: { toolCalls: [plantCall('c_p')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'exit code 0' },
          reply: { toolCalls: [handCall('delegate', 'c_h')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: NOT_ACCEPTED },
          reply: finish('c_f', 'not allowed'),
        },
      ],
    });
    const r = await runCli(
      [
        'run',
        '--workspace',
        ws,
        '--confirm',
        'never',
        '--sandbox',
        'off',
        '--task',
        'make a helper and use it',
      ],
      { env },
    );
    assert.equal(r.code, 0, printed(r));
    const [dir] = conversationDirs(ws);
    assert.deepEqual(childDirs(dir!), []);
    assert.ok(!existsSync(join(ws, 'planted.txt')));
    assert.equal(fx.llm!.remainingTurns(), 0);
  });

  for (const tool of ['delegate', 'transfer_to_agent'] as const) {
    it(`after logbook agents accept, ${tool} to the definition works`, async () => {
      const ws = fx.tmp();
      await plantHelper(fx, ws);
      const listed = await runCli(['agents', '--workspace', ws]);
      assert.match(listed.stdout, /held helper: not used until you accept it/, printed(listed));
      assert.doesNotMatch(listed.stdout, /^helper {2}\(/m, 'a held agent is not listed as usable');

      const accepted = await runCli(['agents', 'accept', 'helper', '--workspace', ws]);
      assert.equal(accepted.code, 0, printed(accepted));
      assert.ok(accepted.stdout.includes(HELPER.trimEnd()), 'the accepted definition is shown');
      assert.match(accepted.stdout, /Accepted the agent helper as shown \(sha256:[0-9a-f]{64}\)/);
      const again = await runCli(['agents', 'accept', 'helper', '--workspace', ws]);
      assert.notEqual(again.code, 0, 'nothing is left to accept');
      assert.match(again.stderr, /No held definition of an agent "helper"/);

      const { dir, log } = await handToHelper(fx, ws, tool, 'act', 'works');
      assert.equal(readFileSync(join(ws, 'planted.txt'), 'utf8'), 'written\n');
      if (tool === 'delegate') assert.equal(childDirs(dir).length, 1);
      else assert.equal(handoffs(log).length, 1);
      assert.equal(fx.llm!.remainingTurns(), 0);
    });
  }

  for (const answer of ['y', 'n'] as const) {
    it(`at a terminal, run shows the held definition and asks; "${answer}" ${answer === 'y' ? 'uses' : 'keeps holding'} it`, async () => {
      const ws = fx.tmp();
      await plantHelper(fx, ws);
      const env = await fx.startLlm({
        name: `asked-${answer}`,
        turns:
          answer === 'y'
            ? [
                {
                  match: { lastRole: 'user', lastContentIncludes: 'use the helper' },
                  reply: { toolCalls: [handCall('delegate', 'c_h')] },
                },
                {
                  note: 'the accepted helper runs',
                  match: { lastRole: 'user', lastContentIncludes: 'write planted.txt' },
                  reply: finish('c_f', 'done'),
                },
                { match: { lastRole: 'tool' }, reply: { content: 'The helper did it.' } },
              ]
            : [
                {
                  match: { lastRole: 'user', lastContentIncludes: 'use the helper' },
                  reply: { toolCalls: [handCall('delegate', 'c_h')] },
                },
                {
                  match: { lastRole: 'tool', toolResultIncludes: NOT_ACCEPTED },
                  reply: finish('c_f', 'not allowed'),
                },
              ],
      });
      const before = new Set(conversationDirs(ws));
      const r = await runCliAtTerminal(
        ['run', '--workspace', ws, '--confirm', 'never', '--task', 'use the helper'],
        env,
        [answer],
      );
      assert.equal(r.code, 0, r.output);
      assert.ok(r.output.includes('name: helper'), 'the definition is shown before the question');
      assert.match(r.output, /Use the agent helper as shown\? \[y\/N\]/);
      const [dir] = conversationDirs(ws).filter((d) => !before.has(d));
      assert.ok(dir);
      const accepted = (await readLogJson(dir)).filter(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_definition_accepted',
      );
      if (answer === 'y') {
        assert.equal(childDirs(dir).length, 1, 'the helper ran as a child');
        assert.deepEqual(
          accepted.map((e) => (e.value as Json).name),
          ['helper'],
          'the run records what the user accepted',
        );
        assert.match(String((accepted[0]!.value as Json).fingerprint), /^sha256:[0-9a-f]{64}$/);
        assert.match(r.output, /\[agent\] you accepted the definition of helper \(/);
      } else {
        assert.deepEqual(childDirs(dir), []);
        assert.deepEqual(accepted, []);
      }
      assert.equal(fx.llm!.remainingTurns(), 0);
    });
  }
});
