// Plan mode: the agent may only read. Writes are refused before they run, with a message the model
// reads; the mode is an event, so reopening the log and forking keep it; approving the plan
// switches the same conversation to act mode with the plan as the next user message.
import * as assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvedPlanMessage, planModeRefusal, PLAN_MODE_PROMPT } from '../../../src/core/agent/plan-mode';
import { textOf, type Event } from '../../../src/core/events';
import { MemoryEventStore } from '../../../src/core/log/memory-store';
import type { StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { AGENT_MODE_KEY, deriveState } from '../../../src/core/state';
import { commandReadOnly } from '../../../src/core/security';
import { defaultTools, type ToolSpec } from '../../../src/core/tools';
import { createHarness, type Harness } from '../../support/agent-harness';

const ROOTS = ['/ws'];
const tools = defaultTools();
const tool = (name: string): ToolSpec => tools.find((t) => t.name === name)!;

describe('commandReadOnly: what plan mode lets the terminal run', () => {
  const readOnly = [
    'ls -la',
    'cat src/a.ts | grep -n foo | head -20',
    'git status && git log --oneline -5',
    'git diff HEAD~1 -- src',
    'find . -name "*.ts" -not -path "./node_modules/*"',
    'grep -rn TODO src 2>/dev/null',
    'ls missing 2>&1 | head',
    'sed -n 1,40p README.md',
    'cd src && ls',
    'wc -l $(git ls-files)',
    'cat < notes.txt',
    'npm ls --depth=0',
    'git config user.name',
    'uniq sorted.txt',
  ];
  const writes: [string, RegExp][] = [
    ['echo hi > out.txt', /writes to out\.txt/],
    ['ls >> listing.txt', /writes to listing\.txt/],
    ['cat a | tee copy.txt', /writes to copy\.txt/],
    ['cat <<EOF > f.txt\nhi\nEOF', /writes to f\.txt/],
    ['mkdir build', /mkdir/],
    ['touch notes.md', /touch/],
    ['xargs touch < names.txt', /touch/],
    ['bash -c "ls; mkdir z"', /mkdir/],
    ['echo $(touch q)', /touch/],
    ['timeout 5 touch x', /touch/],
    ['find . -name "*.tmp" -delete', /deletes/],
    ['find . -exec rm {} +', /deletes/],
    ["sed 's/a/b/w changed.txt' f", /sed script/],
    ['sed -i s/a/b/ f', /in place/],
    ['sort -o sorted.txt data.txt', /writes to sorted\.txt/],
    ['uniq in.txt out.txt', /writes to out\.txt/],
    ['tree -o tree.txt', /writes to tree\.txt/],
    ['git log --output=log.txt', /--output/],
    ['git -c core.pager="touch pwned" log', /git -c/],
    ['git config --unset user.name', /changes git settings/],
    ['git commit -m x', /changes the repository/],
    ['npm audit fix', /audit fix/],
    ['npm test', /runs project scripts/],
    ['alias ls="rm -rf"', /alias/],
    ['trap "rm x" EXIT', /trap/],
    ['python3 -c "print(1)"', /inline/],
    ['ls; rm -f a', /deletes/],
    ['cat "unclosed', /unclosed/],
  ];
  for (const command of readOnly) {
    it(`reads: ${command}`, () => {
      const v = commandReadOnly(command, { roots: ROOTS });
      assert.equal(v.readOnly, true, `${command}: ${v.reason}`);
    });
  }
  for (const [command, why] of writes) {
    it(`not read-only: ${command.replace(/\n/g, '⏎')}`, () => {
      const v = commandReadOnly(command, { roots: ROOTS });
      assert.equal(v.readOnly, false, command);
      assert.match(v.reason, why);
    });
  }
  it('reading a secret file is not a read plan mode allows', () => {
    assert.equal(commandReadOnly('cat ~/.ssh/id_rsa', { roots: ROOTS }).readOnly, false);
  });
});

describe('planModeRefusal', () => {
  it('lets read-only tools, file_editor view and read-only commands through', () => {
    for (const name of ['glob', 'grep', 'think', 'task_tracker', 'finish'])
      assert.equal(planModeRefusal(tool(name), {}, ROOTS), null, name);
    assert.equal(planModeRefusal(tool('file_editor'), { command: 'view', path: 'a.ts' }, ROOTS), null);
    assert.equal(planModeRefusal(tool('terminal'), { command: 'git log -3', is_input: false }, ROOTS), null);
    assert.equal(planModeRefusal(tool('terminal'), { command: '', is_input: true }, ROOTS), null);
    assert.equal(planModeRefusal(tool('terminal'), { command: 'C-c', is_input: true }, ROOTS), null);
  });

  it('judges a command from where the shell is now, not from the workspace folder', () => {
    const cat = { command: 'cat shadow', is_input: false };
    assert.equal(planModeRefusal(tool('terminal'), cat, ROOTS, '/ws/src'), null);
    const refusal = planModeRefusal(tool('terminal'), cat, ROOTS, '/etc');
    assert.ok(refusal, 'reading /etc/shadow after a cd there is not a plain read');
    assert.match(refusal, /`cat shadow` is not read-only/);
    assert.equal(planModeRefusal(tool('terminal'), cat, ROOTS), null, 'from the workspace folder it is');
  });

  it('refuses writes, typing into a command and tools that are not read-only, saying it is plan mode', () => {
    const cases: [ToolSpec, Record<string, unknown>, RegExp][] = [
      [tool('file_editor'), { command: 'create', path: 'a.ts', file_text: 'x' }, /file_editor create/],
      [tool('file_editor'), { command: 'str_replace', path: 'a.ts' }, /file_editor str_replace/],
      [tool('terminal'), { command: 'rm -rf dist' }, /`rm -rf dist` is not read-only/],
      [tool('terminal'), { command: 'yes', is_input: true }, /typing into a running command/],
      [tool('terminal'), { command: 'ls', reset: true }, /restarting the shell/],
      [{ ...tool('think'), name: 'mcp_write', readOnly: false }, {}, /mcp_write is not a read-only tool/],
    ];
    for (const [spec, args, why] of cases) {
      const refusal = planModeRefusal(spec, args, ROOTS);
      assert.ok(refusal, `${spec.name} ${JSON.stringify(args)} is refused`);
      assert.match(refusal, /plan mode/);
      assert.match(refusal, why);
    }
  });
});

describe('approvedPlanMessage', () => {
  it('lists the steps in order with their notes, marking those already done', () => {
    const text = approvedPlanMessage([
      { title: 'Read the code', notes: 'done while planning', status: 'done' },
      { title: 'Change it', notes: 'line one\nline two', status: 'todo' },
    ]);
    assert.match(text, /^Go ahead with this plan:\n\n/);
    assert.doesNotMatch(text, /act mode|task_tracker/, "in the user's words: no mode or tool names");
    assert.match(
      text,
      /1\. Read the code \(done\)\n {3}done while planning\n2\. Change it\n {3}line one\n {3}line two$/,
    );
  });
});

describe('Conversation in plan mode', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const plan = {
    id: 'call_plan',
    name: 'task_tracker',
    arguments: {
      command: 'plan',
      task_list: [
        { title: 'Create hello.txt', notes: 'with the greeting', status: 'todo' },
        { title: 'Check it', notes: '', status: 'todo' },
      ],
    },
  };
  const create = {
    id: 'call_write',
    name: 'file_editor',
    arguments: {
      command: 'create',
      path: 'hello.txt',
      file_text: 'hi\n',
      security_risk: 'LOW',
      summary: 'x',
    },
  };

  it('refuses a write before it runs, lets reads run, and after approval acts with the plan as context', async () => {
    h = await createHarness(
      {
        name: 'plan-then-act',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'greeting' },
            reply: {
              toolCalls: [
                create,
                { id: 'call_ls', name: 'terminal', arguments: { command: 'ls -a', security_risk: 'LOW' } },
                {
                  id: 'call_touch',
                  name: 'terminal',
                  arguments: { command: 'touch x', security_risk: 'LOW' },
                },
              ],
            },
          },
          { match: { lastRole: 'tool', toolResultIncludes: 'plan mode' }, reply: { toolCalls: [plan] } },
          { match: { lastRole: 'tool' }, reply: { content: 'Here is my plan.' } },
          {
            match: { lastRole: 'user', lastContentIncludes: 'Go ahead with this plan' },
            reply: { toolCalls: [create] },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
        ],
      },
      { confirmationMode: 'never' },
    );
    const c = await h.open();
    await c.setMode('plan');
    await c.sendMessage('add a greeting file');
    assert.equal(await c.run(), 'finished');
    assert.ok(!existsSync(join(h.workspace, 'hello.txt')), 'the create was not run in plan mode');
    assert.ok(!existsSync(join(h.workspace, 'x')), 'touch was not run in plan mode');
    const events = await c.events();
    const errors = events.filter((e) => e.kind === 'AgentErrorEvent');
    assert.deepEqual(
      errors.map((e) => e.tool_call_id),
      ['call_write', 'call_touch'],
    );
    const actions = events
      .filter((e) => e.kind === 'ActionEvent')
      .map((e) => [e.tool_call_id, e.action !== null]);
    assert.deepEqual(
      actions,
      [
        ['call_write', false],
        ['call_ls', true],
        ['call_touch', false],
        ['call_plan', true],
      ],
      'only reads and the plan became actions; the refused writes are calls with no action',
    );
    // The model was told it is in plan mode, and read why each write was refused.
    type Msg = { role: string; content: unknown };
    const bodies = h.llm.completionBodies() as { messages: Msg[] }[];
    assert.match(JSON.stringify(bodies[0]!.messages[0]), /PLAN MODE is on/);
    const toolReplies = bodies[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    assert.equal(toolReplies.filter((t) => /plan mode/.test(t)).length, 2);
    assert.equal(c.state.mode, 'plan');
    assert.deepEqual(
      c.state.tasks.map((t) => t.title),
      ['Create hello.txt', 'Check it'],
    );

    // Reopened from its log, the conversation is still in plan mode.
    assert.equal(deriveState(events).mode, 'plan');

    await c.approvePlan([{ title: 'Create hello.txt (edited)', notes: 'say hi', status: 'todo' }]);
    assert.equal(c.state.mode, 'act');
    assert.equal(await c.run(), 'finished');
    assert.ok(existsSync(join(h.workspace, 'hello.txt')), 'act mode runs the write');
    const afterApproval = (h.llm.completionBodies() as { messages: Msg[] }[])[3]!;
    assert.doesNotMatch(JSON.stringify(afterApproval.messages[0]), /PLAN MODE/);
    const last = afterApproval.messages.at(-1)!;
    assert.match(String(JSON.stringify(last.content)), /Create hello\.txt \(edited\)/);
    // The model is told about act mode with the go-ahead; the user's recorded words do not say it.
    assert.match(String(JSON.stringify(last.content)), /switched the conversation to act mode/);
    const goAhead = (await c.events()).filter((e) => e.kind === 'MessageEvent' && e.source === 'user').at(-1);
    assert.ok(goAhead?.kind === 'MessageEvent');
    assert.equal(
      textOf(goAhead.llm_message.content),
      'Go ahead with this plan:\n\n1. Create hello.txt (edited)\n   say hi',
    );
    assert.match(textOf(goAhead.extended_content ?? []), /act mode/);
    const modes = (await c.events())
      .filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === AGENT_MODE_KEY)
      .map((e) => (e as Extract<Event, { kind: 'ConversationStateUpdateEvent' }>).value);
    assert.deepEqual(modes, ['plan', 'act']);
  });

  it('an action recorded in act mode and approved after switching to plan mode is refused, not run', async () => {
    writeFileSync(
      join(
        (h = await createHarness(
          {
            name: 'switch',
            turns: [
              { match: { lastRole: 'user' }, reply: { toolCalls: [create] } },
              {
                match: { lastRole: 'tool', toolResultIncludes: 'plan mode' },
                reply: { content: 'I will plan.' },
              },
            ],
          },
          { confirmationMode: 'always' },
        )).workspace,
        'keep.txt',
      ),
      'x',
    );
    const c = await h.open();
    await c.sendMessage('write it');
    assert.equal(await c.run(), 'waiting_for_confirmation');
    await c.setMode('plan');
    await c.approve();
    assert.equal(await c.run(), 'finished');
    assert.ok(!existsSync(join(h.workspace, 'hello.txt')));
    const obs = (await c.events()).filter((e) => e.kind === 'ObservationEvent');
    assert.equal(obs.length, 1);
    assert.match(JSON.stringify(obs[0]), /plan mode/);
  });

  it('a fork keeps the mode, and an empty plan cannot be approved', async () => {
    h = await createHarness({ name: 'fork', turns: [{ reply: { content: 'ok' } }] });
    const c = await h.open();
    await c.setMode('plan');
    await c.sendMessage('look around');
    await c.run();
    const target = new MemoryEventStore<StoredConversationEvent>();
    await c.fork(c.state.head!, target);
    const forked = await h.open({ store: target });
    assert.equal(forked.state.mode, 'plan');
    await assert.rejects(c.approvePlan(), /no plan to approve/);
    assert.match(PLAN_MODE_PROMPT, /task_tracker/);
  });
});
