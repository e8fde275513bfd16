import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson } from '../cli/fixtures';
import { childDirs, delegateCall, finish, type Json, toolsOfferedFor } from './agents-fixture';

describe('nested sub-agents (scripted model)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  /** A workspace with a read-only `lead` agent that may delegate. */
  function leadWorkspace(): string {
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(ws, '.logbook', 'agents', 'lead.md'),
      '---\nname: lead\ndescription: Splits work among agents.\ntools: [delegate, grep]\nmode: plan\n---\nSplit the work.\n',
    );
    return ws;
  }

  it('a child whose definition lists delegate runs a grandchild in its own folder; explore gets no delegate', async () => {
    const ws = leadWorkspace();
    const env = await fx.startLlm({
      name: 'grandchild',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'plan the work' },
          reply: { toolCalls: [delegateCall('sub', 'split the work', 'lead')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'split the work' },
          reply: { toolCalls: [delegateCall('look', 'read the readme', 'explore')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'read the readme' },
          reply: finish('g1', 'readme says hi'),
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'readme says hi' },
          reply: finish('c1', 'lead found: readme says hi'),
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'lead found' }, reply: { content: 'Done.' } },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'plan the work'], { env });
    assert.equal(r.code, 0, printed(r));
    const dir = onlyConversationDir(ws);
    const [child] = childDirs(dir);
    assert.ok(child, 'the child has its folder');
    const [grandchild] = childDirs(child);
    assert.ok(grandchild, "the grandchild's folder is inside the child's");

    const childLog = await readLogJson(child);
    const childId = basename(child);
    const start = childLog.find((e) => e.key === 'agent_start' && (e.value as Json).folder);
    assert.ok(start, "the child's log records the grandchild's start");
    assert.equal((start.value as Json).branch, 'main.lead.1.explore.1');

    const grandLog = await readLogJson(grandchild);
    const first = grandLog[0]!.value as Json;
    assert.equal(first.parent_conversation_id, childId, 'the grandchild names the child as its parent');
    assert.ok(grandLog.every((e) => e.branch === 'main.lead.1.explore.1'));

    const parentLog = await readLogJson(dir);
    const observation = parentLog.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate');
    assert.match(JSON.stringify(observation), /lead found: readme says hi/);

    const bodies = fx.llm!.completionBodies() as Json[];
    assert.ok(toolsOfferedFor(bodies, 'split the work').includes('delegate'), 'lead lists delegate');
    assert.ok(!toolsOfferedFor(bodies, 'read the readme').includes('delegate'), 'explore stays without it');
  });

  it('past the depth cap the delegation is refused with an observation the model reads', async () => {
    const ws = leadWorkspace();
    const env = await fx.startLlm({
      name: 'depth-cap',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'plan the work' },
          reply: { toolCalls: [delegateCall('sub', 'split the work', 'lead')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'split the work' },
          reply: { toolCalls: [delegateCall('deeper', 'go one level deeper', 'lead')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'go one level deeper' },
          reply: { toolCalls: [delegateCall('deepest', 'and deeper still', 'explore')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'nest at most 3 deep' },
          reply: finish('g1', 'did it myself'),
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'did it myself' },
          reply: finish('c1', 'grandchild did it'),
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'grandchild did it' }, reply: { content: 'Done.' } },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'plan the work'], { env });
    assert.equal(r.code, 0, printed(r));
    const [child] = childDirs(onlyConversationDir(ws));
    const [grandchild] = childDirs(child!);
    assert.ok(grandchild);
    assert.deepEqual(childDirs(grandchild), [], 'no great-grandchild was started');
    const log = await readLogJson(grandchild);
    const refused = log.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate')!;
    assert.equal((refused.observation as Json).is_error, true);
    assert.match(
      JSON.stringify(refused.observation),
      /agents nest at most 3 deep and this agent is already at depth 3/,
    );
    assert.equal(fx.llm!.remainingTurns(), 0);
  });
});
