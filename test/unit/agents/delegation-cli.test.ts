import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';

type Json = Record<string, unknown>;

function updates(events: Json[], key: string): Json[] {
  return events
    .filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === key)
    .map((e) => e.value as Json);
}

function childDirs(parent: string): string[] {
  const root = join(parent, 'agents');
  return existsSync(root) ? readdirSync(root).map((n) => join(root, n)) : [];
}

const delegateCall = (id: string, tasks: Record<string, string>, types: string[]) => ({
  id,
  name: 'delegate',
  arguments: { command: 'delegate', ids: Object.keys(tasks), agent_types: types, tasks },
});

describe('sub-agents through the CLI (scripted model)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('delegates to two read-only explorers at once; each has its own signed log linked both ways', async () => {
    const ws = fx.tmp();
    writeFileSync(join(ws, 'auth.ts'), 'export function login() {}\n');
    const env = await fx.startLlm({
      name: 'two-explorers',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'map the code' },
          reply: {
            toolCalls: [
              delegateCall('call_d', { auth: 'find login', tests: 'find the tests' }, ['explore', 'explore']),
            ],
          },
        },
        // The two children ask at the same time; each answer is slow, so they overlap.
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [{ id: 'c1', name: 'finish', arguments: { message: 'answer one' } }],
            delayMs: 400,
          },
        },
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [{ id: 'c2', name: 'finish', arguments: { message: 'answer two' } }],
            delayMs: 400,
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'answer one' },
          reply: { content: 'Both explored.' },
        },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'map the code', '--json'], { env });
    assert.equal(r.code, 0, printed(r));
    const dir = onlyConversationDir(ws);
    const parent = await readLogJson(dir);
    // Every event carries its agent and branch.
    for (const e of parent) assert.deepEqual([e.agent_name, e.branch], ['main', 'main'], JSON.stringify(e));
    const starts = updates(parent, 'agent_start');
    assert.deepEqual(starts.map((s) => s.branch).sort(), ['main.explore.1', 'main.explore.2']);
    const action = parent.find((e) => e.kind === 'ActionEvent' && e.tool_name === 'delegate')!;
    const observation = parent.find((e) => e.kind === 'ObservationEvent' && e.action_id === action.id)!;
    const text = JSON.stringify(observation.observation);
    assert.match(text, /answer one/);
    assert.match(text, /answer two/);
    const children = childDirs(dir);
    assert.equal(children.length, 2);
    const childEnds: Json[] = [];
    const childStarts: Json[] = [];
    for (const s of starts) {
      assert.equal(s.parent_event_id, action.id);
      assert.match(String(s.did), /^did:key:z6Mk/);
      const log = await readLogJson(join(dir, String(s.folder)));
      const first = log[0]!;
      assert.equal(first.key, 'agent_start', 'the child log starts by naming its parent');
      const v = first.value as Json;
      assert.equal(v.parent_event_id, action.id);
      assert.equal(v.branch, s.branch);
      for (const e of log) assert.equal(e.branch, s.branch);
      childStarts.push(first);
      childEnds.push(log.find((e) => e.key === 'agent_end')!);
      // Read-only: the explorer offered no terminal and was in plan mode.
      assert.ok(log.some((e) => e.key === 'agent_mode' && e.value === 'plan'));
    }
    // Side by side: each child started before the other ended.
    const t = (e: Json) => Date.parse(String(e.timestamp));
    assert.ok(t(childStarts[0]!) < t(childEnds[1]!) && t(childStarts[1]!) < t(childEnds[0]!));
    // The children's model calls count in the parent's totals.
    const usage = updates(parent, 'llm_usage').map((u) => u.usage_id);
    assert.deepEqual(usage.filter((u) => String(u).startsWith('agent:')).sort(), [
      'agent:main.explore.1',
      'agent:main.explore.2',
    ]);
    assert.ok(jsonLines(r).some((e) => e.branch === 'main.explore.1'));
  });
});
