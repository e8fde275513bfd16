// Pausing a conversation that delegated work pauses the whole tree: each running delegated agent
// stops at its next step, records the pause in its own log and asks the model nothing more; the
// next run of the parent resumes every one of them where it stopped.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AgentDefinition, EXPLORE_AGENT } from '../../../src/core/agents/definition';
import { mainAgentSession } from '../../../src/host/node/agents/main-agent';
import { nodeChildOpener } from '../../../src/host/node/agents/child-runner';
import { agentsLines, agentsReport } from '../../../src/host/node/cli/agents-report';
import { type NodeSession, openNodeConversation } from '../../../src/host/node/node-session';
import type { LlmSettings } from '../../../src/core/llm';
import { startScriptedLlm, type Scenario, type ScriptedLlm } from '../../support/llm-server';
import type { Turn } from '../../support/llm-server/scenario';
import { readLogJson } from '../cli/fixtures';
import {
  COUNTED,
  COUNTING_TASK,
  countingChildTurns,
  delegateReply as delegate,
  finishReply as finish,
  thoughtsOf as thoughts,
} from '../../support/scenarios/counting-child';

type Json = Record<string, unknown>;

const LEAD: AgentDefinition = {
  ...EXPLORE_AGENT,
  name: 'lead',
  description: 'Splits work among agents.',
  tools: ['delegate', 'think'],
  instructions: 'Split the work.',
  origin: 'test',
};

function agentDirs(dir: string): string[] {
  const root = join(dir, 'agents');
  return existsSync(root) ? readdirSync(root).map((n) => join(root, n)) : [];
}

describe('Pause reaches delegated agents', function () {
  this.timeout(60_000);
  let llm: ScriptedLlm | undefined;
  let session: NodeSession | undefined;
  let root: string | undefined;

  afterEach(async () => {
    await session?.close();
    await llm?.close();
    if (root) rmSync(root, { recursive: true, force: true });
    session = llm = root = undefined;
  });

  async function open(scenario: Scenario): Promise<{ dir: string }> {
    llm = await startScriptedLlm({ scenario });
    root = mkdtempSync(join(tmpdir(), 'logbook-pause-tree-'));
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    const dir = join(root, 'conversation');
    const llmSettings: LlmSettings = {
      baseUrl: llm.baseUrl,
      apiKey: 'test-key',
      model: 'scripted-model',
      maxRetries: 0,
    };
    const shared = { workspace, llmSettings, settings: { confirmationMode: 'never' as const } };
    const main = mainAgentSession({
      agents: [EXPLORE_AGENT, LEAD],
      parentDir: dir,
      parentId: 'parent',
      caps: () => ({}),
      openChild: nodeChildOpener({ session: { ...shared, condenser: null } }),
    });
    session = await openNodeConversation({
      ...shared,
      storeDir: dir,
      id: 'parent',
      condenser: null,
      tools: main.tools,
      agent: main.agent,
    });
    return { dir };
  }

  /** Waits until the scripted model has been asked `n` times. */
  async function requests(n: number): Promise<void> {
    for (let i = 0; i < 400 && llm!.completionBodies().length < n; i++) await sleep(10);
    assert.equal(llm!.completionBodies().length, n, `the model was asked ${n} times`);
  }

  const kinds = (log: Json[]) => log.map((e) => String(e.kind));
  /** The parent hands "count to three" to an explorer (slow on its second step); then `after`. */
  const countForMe = (name: string, after: Turn[] = []): Scenario => ({
    name,
    turns: [
      {
        match: { lastRole: 'user', lastContentIncludes: 'count for me' },
        reply: delegate('w', COUNTING_TASK, 'explore'),
      },
      ...countingChildTurns(800),
      ...after,
    ],
  });
  it('a child pauses at its next step, asks nothing more, and resumes with the parent', async () => {
    const { dir } = await open(
      countForMe('pause-child', [
        { match: { lastRole: 'tool', toolResultIncludes: COUNTED }, reply: { content: 'Done.' } },
      ]),
    );
    const parent = session!.conversation;
    await parent.sendMessage('count for me');
    const run = parent.run();
    await requests(3); // the parent's, the child's first, and the child's slow second
    await parent.pause();
    assert.equal(await run, 'paused');

    const [child] = agentDirs(dir);
    assert.ok(child, 'the child has its folder');
    const childLog = await readLogJson(child);
    assert.equal(kinds(childLog).at(-1), 'PauseEvent', "the child's log ends in its pause");
    assert.deepEqual(thoughts(childLog), ['one', 'two'], 'the step in flight was recorded, nothing after it');
    const parentLog = await readLogJson(dir);
    assert.equal(kinds(parentLog).at(-1), 'PauseEvent');
    assert.ok(
      !parentLog.some((e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate'),
      'the delegation is not answered while its agent is paused',
    );
    assert.ok(!parentLog.some((e) => e.key === 'agent_end'), 'the child has not ended');
    await sleep(300);
    assert.equal(llm!.completionBodies().length, 3, 'no request after the pause');

    assert.equal(await parent.run(), 'finished');
    const after = await readLogJson(child);
    assert.deepEqual(thoughts(after), ['one', 'two', 'three'], 'it went on from where it stopped');
    assert.equal(kinds(after).filter((k) => k === 'PauseEvent').length, 1);
    assert.equal(
      after.filter((e) => e.kind === 'MessageEvent' && e.source === 'user').length,
      1,
      'the task was given once',
    );
    const end = await readLogJson(dir);
    assert.equal(end.filter((e) => e.key === 'agent_start').length, 1, 'one child, started once');
    const observation = end.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate');
    assert.match(JSON.stringify(observation), /counted to three/);
    assert.equal(llm!.remainingTurns(), 0);
  });

  it('a grandchild pauses too, and the tree resumes down to it', async () => {
    const { dir } = await open({
      name: 'pause-grandchild',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'plan it' },
          reply: delegate('l', 'split the work', 'lead'),
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'split the work' },
          reply: delegate('w', COUNTING_TASK, 'explore'),
        },
        ...countingChildTurns(800),
        {
          match: { lastRole: 'tool', toolResultIncludes: COUNTED },
          reply: finish('lead: counted'),
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'lead: counted' }, reply: { content: 'Done.' } },
      ],
    });
    const parent = session!.conversation;
    await parent.sendMessage('plan it');
    const run = parent.run();
    await requests(4); // parent, lead, the grandchild's first and its slow second
    await parent.pause();
    assert.equal(await run, 'paused');

    const [child] = agentDirs(dir);
    const [grandchild] = agentDirs(child!);
    assert.ok(grandchild, "the grandchild's folder is inside the child's");
    const grandLog = await readLogJson(grandchild);
    assert.equal(kinds(grandLog).at(-1), 'PauseEvent', "the grandchild's log ends in its pause");
    assert.deepEqual(thoughts(grandLog), ['one', 'two']);
    const childLog = await readLogJson(child!);
    assert.equal(kinds(childLog).at(-1), 'PauseEvent', "the child's log ends in its pause");
    await sleep(300);
    assert.equal(llm!.completionBodies().length, 4, 'no request after the pause');

    assert.equal(await parent.run(), 'finished');
    assert.deepEqual(thoughts(await readLogJson(grandchild)), ['one', 'two', 'three']);
    const observation = (await readLogJson(dir)).find(
      (e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate',
    );
    assert.match(JSON.stringify(observation), /lead: counted/);
    assert.equal(llm!.remainingTurns(), 0);
  });

  it('Stop on a paused tree ends every paused agent in its own log and in its parent’s', async () => {
    const { dir } = await open({
      name: 'stop-paused-tree',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'plan it' },
          reply: delegate('l', 'split the work', 'lead'),
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'split the work' },
          reply: delegate('w', COUNTING_TASK, 'explore'),
        },
        ...countingChildTurns(800),
      ],
    });
    const parent = session!.conversation;
    await parent.sendMessage('plan it');
    const run = parent.run();
    await requests(4);
    await parent.pause();
    assert.equal(await run, 'paused');
    await parent.interrupt();

    const [child] = agentDirs(dir);
    const [grandchild] = agentDirs(child!);
    const ends = (log: Json[]) =>
      log.filter((e) => e.key === 'agent_end').map((e) => (e.value as Json).branch);
    const grandLog = await readLogJson(grandchild!);
    assert.deepEqual(ends(grandLog), ['main.lead.1.explore.1'], 'the grandchild records its end');
    const childLog = await readLogJson(child!);
    assert.deepEqual(ends(childLog), ['main.lead.1.explore.1', 'main.lead.1'], 'and the child its own');
    const parentLog = await readLogJson(dir);
    assert.deepEqual(ends(parentLog), ['main.lead.1']);
    for (const log of [grandLog, childLog, parentLog])
      for (const e of log.filter((x) => x.key === 'agent_end'))
        assert.deepEqual(
          [(e.value as Json).stopped, (e.value as Json).message],
          [true, 'The user stopped the agent before it finished.'],
          'each end says the user stopped it',
        );
    const answer = parentLog.find((e) => e.kind === 'AgentErrorEvent' && e.tool_name === 'delegate');
    assert.ok(answer, 'the delegation is answered as stopped');
    assert.equal(llm!.completionBodies().length, 4, 'nothing more was asked');
  });

  it('Stop while a child runs ends it as stopped by the user, in its log and its parent’s', async () => {
    const { dir } = await open(countForMe('stop-running-child'));
    const parent = session!.conversation;
    await parent.sendMessage('count for me');
    const run = parent.run();
    await requests(3); // the child's slow second step is in flight
    await parent.interrupt();
    await run;

    const [child] = agentDirs(dir);
    const end = (log: Json[]) => log.find((e) => e.key === 'agent_end')?.value as Json | undefined;
    for (const log of [await readLogJson(child!), await readLogJson(dir)]) {
      const value = end(log);
      assert.equal(value?.stopped, true, `stopped by the user: ${JSON.stringify(value)}`);
      assert.equal(value?.status, 'paused', 'the status a stop leaves, as OpenHands names it');
      assert.equal(value?.message, 'The user stopped the agent before it finished.');
    }
    // `logbook show` says so too.
    await session!.close();
    session = undefined;
    const report = await agentsReport(dir);
    assert.equal(report.children[0]?.stopped, true);
    assert.match(agentsLines(report).join('\n'), /main\.explore\.1 {2}explore {2}stopped by the user/);
    assert.equal(llm!.completionBodies().length, 3, 'nothing more was asked');
  });
});
