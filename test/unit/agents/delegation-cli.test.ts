import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { identityFromPem, openSignedStore } from '../../../src/core/signing';
import { join } from 'node:path';
import { jsonLines, printed, runCli, testSigningKey } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';
import { childDirs, type Json } from './agents-fixture';

function updates(events: Json[], key: string): Json[] {
  return events
    .filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === key)
    .map((e) => e.value as Json);
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
    // The main agent's system prompt names the agents it can delegate to.
    const prompt = JSON.stringify(parent.find((e) => e.kind === 'SystemPromptEvent'));
    assert.match(prompt, /- explore \(read-only\): Reads the workspace/);
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

    // Each agent signed its own log with its own key, the one the parent's log records.
    const verify = await runCli(['verify', dir]);
    assert.equal(verify.code, 0, printed(verify));
    for (const s of starts) {
      assert.match(
        verify.stdout,
        new RegExp(
          `agent explore ${String(s.branch).replace(/\./g, '\\.')} \\(${s.folder}\\): \\d+ events verified, signed by agent ${String(s.branch).replace(/\./g, '\\.')}`,
        ),
      );
    }
    const childDids = (
      JSON.parse((await runCli(['verify', dir, '--json'])).stdout) as { agents: Json[] }
    ).agents.map((a) => a.did);
    assert.equal(new Set(childDids).size, 2, 'two children, two keys');

    // A child's log rewritten and signed with the parent's (the user's) key: caught.
    const victim = join(dir, String(starts[0]!.folder));
    const events = (await readLogJson(victim)).map((e) =>
      e.kind === 'ActionEvent' && e.tool_name === 'finish'
        ? { ...e, action: { ...(e.action as Json), message: 'forged answer' } }
        : e,
    );
    const forged = fx.tmp();
    const store = await openSignedStore<StoredConversationEvent>(forged, {
      codec: conversationEventCodec,
      identity: identityFromPem(readFileSync(testSigningKey(), 'utf8')),
      conversationId: String(starts[0]!.conversation_id),
    });
    for (const e of events) await store.append(e as unknown as StoredConversationEvent);
    await store.close();
    rmSync(join(victim, 'segments'), { recursive: true });
    for (const f of ['segments', 'signatures.log', 'meta.json', 'ids.idx', 'sparse.idx'])
      if (existsSync(join(forged, f))) cpSync(join(forged, f), join(victim, f), { recursive: true });
    const caught = await runCli(['verify', dir]);
    assert.equal(caught.code, 1, printed(caught));
    assert.match(caught.stdout, /BROKEN: signed by did:key:\S+, not by its own key/);
  });

  it('an editing agent asks through the parent: its action rejected, the next approved, its result returned', async () => {
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(ws, '.logbook', 'agents', 'editor.md'),
      '---\nname: editor\ndescription: Makes small edits.\ntools: [terminal, file_editor]\nmode: act\nmax_iterations: 10\n---\nEdit with care.\n',
    );
    const env = await fx.startLlm({
      name: 'editing-child',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'tidy up' },
          reply: { toolCalls: [delegateCall('call_d', { tidy: 'remove the build folder' }, ['editor'])] },
        },
        {
          note: 'the child: a risky command the user rejects',
          match: { lastRole: 'user', lastContentIncludes: 'remove the build folder' },
          reply: { toolCalls: [terminalCall('c_rm', 'rm -rf build', 'HIGH')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'keep build' },
          reply: { toolCalls: [terminalCall('c_note', 'echo kept > note.txt', 'HIGH')] },
        },
        {
          match: { lastRole: 'tool' },
          reply: {
            toolCalls: [{ id: 'c_fin', name: 'finish', arguments: { message: 'left build, wrote note' } }],
          },
        },
        {
          note: "the parent reads the child's final message",
          match: { lastRole: 'tool', toolResultIncludes: 'left build, wrote note' },
          reply: { content: 'Done.' },
        },
      ],
    });
    const first = await runCli(['run', '--workspace', ws, '--task', 'tidy up'], { env });
    assert.equal(first.code, 2, printed(first));
    assert.match(first.stdout, /delegated agent main\.editor\.1 .* waits for confirmation of 1 action/);
    assert.match(first.stdout, /editor │ /, "the child's events are printed indented, named");
    const dir = onlyConversationDir(ws);
    const show = await runCli(['show', dir]);
    assert.match(
      show.stdout,
      /main\.editor\.1 +editor +scripted-model +waiting_for_confirmation/,
      printed(show),
    );

    const reject = await runCli(['reject', dir, '--reason', 'keep build'], { env });
    assert.equal(reject.code, 2, printed(reject));
    assert.match(reject.stdout, /echo kept > note\.txt/);
    const approve = await runCli(['approve', dir], { env });
    assert.equal(approve.code, 0, printed(approve));
    assert.equal(readFileSync(join(ws, 'note.txt'), 'utf8'), 'kept\n');
    assert.ok(existsSync(join(ws, 'note.txt')));

    const [child] = childDirs(dir);
    const childShow = await runCli(['show', child!]);
    assert.equal(childShow.code, 0, printed(childShow));
    assert.match(
      childShow.stdout,
      /agent {6}editor \(main\.editor\.1\), delegated by conversation [0-9a-f-]{36}, action /,
    );
    const log = await readLogJson(child!);
    const rejected = log.find((e) => e.kind === 'UserRejectObservation');
    assert.equal(rejected?.rejection_reason, 'keep build');
    assert.equal(rejected?.agent_name, 'editor');
    const parent = await readLogJson(dir);
    const end = updates(parent, 'agent_end')[0]!;
    assert.equal(end.status, 'finished');
    assert.equal(end.message, 'left build, wrote note');
    // The parent's own log holds no action of the child: they are in the child's log.
    assert.ok(!parent.some((e) => e.kind === 'ActionEvent' && e.tool_name === 'terminal'));
  });

  it('escalate ends a child early; the parent gets its result', async () => {
    const ws = fx.tmp();
    const env = await fx.startLlm({
      name: 'escalation',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'look for the config' },
          reply: { toolCalls: [delegateCall('call_d', { cfg: 'find the config' }, ['explore'])] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'find the config' },
          reply: {
            toolCalls: [
              { id: 'c_esc', name: 'escalate', arguments: { message: 'there are two configs; which one?' } },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'escalated' },
          reply: { content: 'The explorer needs a choice.' },
        },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'look for the config'], { env });
    assert.equal(r.code, 0, printed(r));
    const dir = onlyConversationDir(ws);
    const parent = await readLogJson(dir);
    const end = updates(parent, 'agent_end')[0]!;
    assert.equal(end.escalated, true);
    assert.equal(end.message, 'there are two configs; which one?');
    const observation = parent.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate');
    assert.match(JSON.stringify(observation), /escalated:\\nthere are two configs/);
    // The child stopped at its escalation: no further model call for it.
    const log = await readLogJson(childDirs(dir)[0]!);
    assert.equal(log.filter((e) => e.kind === 'ActionEvent').length, 1);
  });

  it('transfer_to_agent hands the same log to another agent; the events after it carry its name', async () => {
    const ws = fx.tmp();
    const env = await fx.startLlm({
      name: 'handoff',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'c_t',
                name: 'transfer_to_agent',
                arguments: { agent_name: 'explore', reason: 'reading only' },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'now handled by the explore agent' },
          reply: { toolCalls: [{ id: 'c_f', name: 'finish', arguments: { message: 'explored' } }] },
        },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'hand it over'], { env });
    assert.equal(r.code, 0, printed(r));
    const log = await readLogJson(onlyConversationDir(ws));
    const at = log.findIndex((e) => e.key === 'agent_start' && (e.value as Json).handoff === true);
    assert.ok(at > 0);
    assert.ok(log.slice(0, at).every((e) => e.agent_name === 'main'));
    assert.ok(log.slice(at + 1).every((e) => e.agent_name === 'explore' && e.branch === 'main'));
    assert.equal(log.at(-1)?.agent_name, 'explore');
    assert.equal(childDirs(onlyConversationDir(ws)).length, 0, 'a handoff makes no child conversation');
    // The agent that took over signed the events after the handoff with its own key.
    const verify = await runCli(['verify', onlyConversationDir(ws), '--json']);
    assert.equal(verify.code, 0, printed(verify));
    const v = JSON.parse(verify.stdout) as { signedBy: Json[]; agents: Json[] };
    const did = (log[at]!.value as Json).did;
    assert.equal(v.agents[0]!.did, did);
    assert.equal(v.signedBy.length, 2);
    assert.equal(v.signedBy[1]!.did, did);
    assert.ok((v.signedBy[1]!.from as number) > at, 'the handoff itself is signed by the agent handing over');
  });

  it("kill -9 inside a child: the child's action is in doubt; resolve --skip on the parent resumes the child, then the parent", async () => {
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(ws, '.logbook', 'agents', 'worker.md'),
      '---\nname: worker\ndescription: Runs commands.\ntools: [terminal]\n---\n',
    );
    const env = await fx.startLlm({
      name: 'crash-in-child',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'build it' },
          reply: { toolCalls: [delegateCall('call_d', { b: 'run the build' }, ['worker'])] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'run the build' },
          reply: { toolCalls: [terminalCall('c_build', 'touch started.txt && sleep 4 && touch built.txt')] },
        },
        {
          note: 'after the skip, the child learns its command did not run again',
          match: { lastRole: 'tool' },
          reply: {
            toolCalls: [{ id: 'c_fin', name: 'finish', arguments: { message: 'build state unknown' } }],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'build state unknown' },
          reply: { content: 'Reported.' },
        },
      ],
    });
    const crashed = await runCli(['run', '--workspace', ws, '--task', 'build it', '--confirm', 'never'], {
      env,
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (existsSync(join(ws, 'started.txt'))) {
            clearInterval(timer);
            child.kill('SIGKILL');
          }
        }, 20);
        child.on('exit', () => clearInterval(timer));
      },
    });
    assert.equal(crashed.code, null, printed(crashed));
    const dir = onlyConversationDir(ws);
    const show = JSON.parse((await runCli(['show', dir, '--json'])).stdout) as Json;
    const children = (show.agents as Json).children as Json[];
    assert.equal(children.length, 1);
    const pending = children[0]!.pending as Json[];
    assert.equal(pending.length, 1);
    assert.equal(pending[0]!.in_doubt, true, "the child's command started and has no result");

    const again = await runCli(['run', '--workspace', ws, '--task', 'go on', '--store', dir], { env });
    assert.equal(again.code, 1, printed(again));
    assert.match(again.stderr, /started before a crash/);

    const resolved = await runCli(['resolve', dir, '--skip'], { env });
    assert.equal(resolved.code, 0, printed(resolved));
    const childLog = await readLogJson(childDirs(dir)[0]!);
    assert.ok(childLog.some((e) => e.kind === 'AgentErrorEvent' && /crash/i.test(String(e.error))));
    assert.equal(childLog.filter((e) => e.kind === 'ActionEvent' && e.tool_name === 'terminal').length, 1);
    const parent = await readLogJson(dir);
    assert.equal(updates(parent, 'agent_end')[0]?.message, 'build state unknown');
    const delegates = parent.filter((e) => e.kind === 'ActionEvent' && e.tool_name === 'delegate');
    assert.equal(delegates.length, 1, 'the delegation itself was resumed, not made again');
  });

  it("a child's tokens count in the parent's totals and against its cap", async () => {
    const ws = fx.tmp();
    const env = await fx.startLlm({
      name: 'budget-rollup',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'count the files' },
          reply: {
            toolCalls: [delegateCall('call_d', { n: 'count them' }, ['explore'])],
            usage: { prompt: 200, completion: 100 },
          },
        },
        {
          note: "the child spends more than is left of the parent's budget",
          match: { lastRole: 'user', lastContentIncludes: 'count them' },
          reply: {
            toolCalls: [{ id: 'c_g', name: 'glob', arguments: { pattern: '*' } }],
            usage: { prompt: 700, completion: 100 },
          },
        },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'count the files'], {
      env: { ...env, LOGBOOK_MAX_TOKENS: '1000' },
    });
    assert.equal(r.code, 3, printed(r));
    const dir = onlyConversationDir(ws);
    const show = JSON.parse((await runCli(['show', dir, '--json'])).stdout) as Json;
    const total = (show.metrics as { total: Json }).total;
    assert.equal(total.promptTokens, 900);
    assert.equal(total.completionTokens, 200);
    const parent = await readLogJson(dir);
    const errors = parent.filter((e) => e.kind === 'ConversationErrorEvent').map((e) => e.code);
    assert.deepEqual(
      errors,
      ['token_budget'],
      "the parent stops on its cap, with the child's tokens counted",
    );
    const child = await readLogJson(childDirs(dir)[0]!);
    assert.ok(
      child.some((e) => e.kind === 'ConversationErrorEvent' && e.code === 'token_budget'),
      "the child was given only what was left of the parent's budget",
    );
    assert.equal(fx.llm!.remainingTurns(), 0);
  });

  it("logbook agents lists the built-in explorer, the user's and the workspace's agents; bad files are named", async () => {
    const ws = fx.tmp();
    const config = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    mkdirSync(join(config, 'logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(config, 'logbook', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews diffs.\ntools: [file_editor, grep]\nmodel: big-model\nmax_cost: 0.5\nconfirmation: always\nallowed_hosts: [api.github.com]\n---\nBe strict.\n',
    );
    writeFileSync(join(ws, '.logbook', 'agents', 'broken.md'), '---\nname: Broken Name\n---\n');
    const r = await runCli(['agents', '--workspace', ws, '--json'], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(r.code, 1, printed(r));
    const out = JSON.parse(r.stdout) as { agents: Json[]; errors: string[] };
    assert.deepEqual(
      out.agents.map((a) => a.name),
      ['explore', 'reviewer'],
    );
    assert.equal(out.agents[1]!.model, 'big-model');
    assert.equal(out.agents[1]!.maxCost, 0.5);
    assert.equal(out.errors.length, 1);
    assert.match(out.errors[0]!, /broken\.md: "name" must be lowercase/);
    const text = await runCli(['agents', '--workspace', ws], { env: { XDG_CONFIG_HOME: config } });
    assert.match(text.stdout, /^explore {2}\(plan\)/m);
    assert.match(text.stdout, /^ {2}confirmation: always \(or its parent's, if stricter\)$/m);
    assert.match(text.stdout, /^ {2}hosts: api\.github\.com \(those its parent may reach\)$/m);
    assert.match(text.stderr, /left out .*broken\.md/);
  });

  it('spawn names a sub-agent; a later run delegates to it by its id alone', async () => {
    const ws = fx.tmp();
    const env = await fx.startLlm({
      name: 'spawn-then-delegate',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'get ready' },
          reply: {
            toolCalls: [
              {
                id: 'c_s',
                name: 'delegate',
                arguments: { command: 'spawn', ids: ['finder'], agent_types: ['explore'] },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Spawned finder (explore)' },
          reply: { content: 'Ready.' },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'now find it' },
          reply: {
            toolCalls: [
              {
                id: 'c_d',
                name: 'delegate',
                arguments: { command: 'delegate', tasks: { finder: 'find main' } },
              },
            ],
          },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'find main' },
          reply: { toolCalls: [{ id: 'c_f', name: 'finish', arguments: { message: 'main is in src' } }] },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'main is in src' }, reply: { content: 'Found.' } },
      ],
    });
    const first = await runCli(['run', '--workspace', ws, '--task', 'get ready'], { env });
    assert.equal(first.code, 0, printed(first));
    const dir = onlyConversationDir(ws);
    const second = await runCli(['run', '--workspace', ws, '--store', dir, '--task', 'now find it'], { env });
    assert.equal(second.code, 0, printed(second));
    const starts = updates(await readLogJson(dir), 'agent_start');
    assert.deepEqual(
      starts.map((v) => [v.agent_name, v.branch]),
      [['explore', 'main.explore.1']],
    );
  });
});
