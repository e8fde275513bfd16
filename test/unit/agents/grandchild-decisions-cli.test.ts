// A grandchild's action that waits for the user is answered through the main conversation:
// `logbook reject` and `logbook approve` on the parent's folder reach the agent two levels down,
// and the chain (grandchild, child, parent) carries on to the end.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';
import { runInTerminal, terminalAvailable } from '../cli/terminal-runner';
import { childDirs, delegateCall, finish, type Json } from './agents-fixture';

describe('a grandchild waits for the user (CLI, scripted model)', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('reject and approve on the main conversation answer the grandchild; everything finishes', async () => {
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(ws, '.logbook', 'agents', 'lead.md'),
      '---\nname: lead\ndescription: Splits work among agents.\ntools: [delegate, terminal]\n---\nSplit the work.\n',
    );
    writeFileSync(
      join(ws, '.logbook', 'agents', 'editor.md'),
      '---\nname: editor\ndescription: Makes small edits.\ntools: [terminal]\n---\nEdit with care.\n',
    );
    const env = await fx.startLlm({
      name: 'grandchild-decisions',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'tidy the tree' },
          reply: { toolCalls: [delegateCall('d_lead', 'split the tidying', 'lead')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'split the tidying' },
          reply: { toolCalls: [delegateCall('d_edit', 'remove the build folder', 'editor')] },
        },
        {
          note: 'the grandchild: a risky command the user rejects',
          match: { lastRole: 'user', lastContentIncludes: 'remove the build folder' },
          reply: { toolCalls: [terminalCall('c_rm', 'rm -rf build', 'HIGH')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'keep build' },
          reply: { toolCalls: [terminalCall('c_note', 'echo kept > note.txt', 'HIGH')] },
        },
        { match: { lastRole: 'tool' }, reply: finish('g_fin', 'left build, wrote note') },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'left build, wrote note' },
          reply: finish('c_fin', 'lead: the editor kept build'),
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'lead: the editor kept build' },
          reply: { content: 'Done.' },
        },
      ],
    });
    mkdirSync(join(ws, 'build'));
    const first = await runCli(['run', '--workspace', ws, '--task', 'tidy the tree'], { env });
    assert.equal(first.code, 2, printed(first));
    // The agent whose action waits is named, not the child that waits on it.
    assert.match(
      first.stdout,
      /delegated agent main\.lead\.1\.editor\.1 .* waits for confirmation of 1 action/,
      printed(first),
    );
    assert.doesNotMatch(first.stdout, /of 0 actions/);
    const dir = onlyConversationDir(ws);

    const reject = await runCli(['reject', dir, '--reason', 'keep build'], { env });
    assert.equal(reject.code, 2, printed(reject));
    assert.match(reject.stdout, /main\.lead\.1\.editor\.1 .* waits for confirmation of 1 action/);
    assert.match(reject.stdout, /echo kept > note\.txt/);
    assert.ok(existsSync(join(ws, 'build')), 'the rejected command did not run');

    const approve = await runCli(['approve', dir], { env });
    assert.equal(approve.code, 0, printed(approve));
    assert.equal(readFileSync(join(ws, 'note.txt'), 'utf8'), 'kept\n');
    assert.equal(fx.llm!.remainingTurns(), 0);

    const [child] = childDirs(dir);
    const [grandchild] = childDirs(child!);
    const grand = await readLogJson(grandchild!);
    const rejected = grand.find((e) => e.kind === 'UserRejectObservation');
    assert.equal(rejected?.rejection_reason, 'keep build');
    assert.equal(rejected?.branch, 'main.lead.1.editor.1');
    const parent = await readLogJson(dir);
    // Every model call of the tree counts in the main conversation, under the branch that made it.
    const usageIds = parent.filter((e) => e.key === 'llm_usage').map((e) => (e.value as Json).usage_id);
    assert.ok(
      usageIds.includes('agent:main.lead.1.editor.1'),
      `the grandchild's own calls: ${usageIds.join(', ')}`,
    );
    assert.ok(usageIds.includes('agent:main.lead.1'), `the child's own calls: ${usageIds.join(', ')}`);
    const observation = parent.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate');
    assert.match(JSON.stringify(observation), /lead: the editor kept build/);
    const childLog = await readLogJson(child!);
    const childEnd = childLog.filter((e) => e.key === 'agent_end').map((e) => e.value as Json);
    assert.deepEqual(
      childEnd.map((v) => [v.branch, v.status]),
      [
        ['main.lead.1.editor.1', 'finished'],
        ['main.lead.1', 'finished'],
      ],
    );
  });

  it('at a terminal, run asks about the grandchild in place, naming it, and carries both answers through', async function () {
    if (!terminalAvailable()) this.skip();
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(ws, '.logbook', 'agents', 'lead.md'),
      '---\nname: lead\ndescription: Splits work among agents.\ntools: [delegate, terminal]\n---\nSplit the work.\n',
    );
    writeFileSync(
      join(ws, '.logbook', 'agents', 'editor.md'),
      '---\nname: editor\ndescription: Makes small edits.\ntools: [terminal]\n---\nEdit with care.\n',
    );
    const env = await fx.startLlm({
      name: 'grandchild-in-place',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'tidy the tree' },
          reply: { toolCalls: [delegateCall('d_lead', 'split the tidying', 'lead')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'split the tidying' },
          reply: { toolCalls: [delegateCall('d_edit', 'remove the build folder', 'editor')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'remove the build folder' },
          reply: { toolCalls: [terminalCall('c_rm', 'rm -rf build', 'HIGH')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'keep build' },
          reply: { toolCalls: [terminalCall('c_note', 'echo kept > note.txt', 'HIGH')] },
        },
        { match: { lastRole: 'tool' }, reply: finish('g_fin', 'left build, wrote note') },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'left build, wrote note' },
          reply: finish('c_fin', 'lead: the editor kept build'),
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'lead: the editor kept build' },
          reply: { content: 'Done.' },
        },
      ],
    });
    mkdirSync(join(ws, 'build'));
    const r = await runInTerminal(['run', 'tidy the tree'], {
      env,
      cwd: ws,
      answers: [
        {
          after:
            /The delegated agent main\.lead\.1\.editor\.1 .*wants to[\s\S]*\$ rm -rf build[\s\S]*more: $/,
          text: 'n',
        },
        { after: /Why not\?.*: $/, text: 'keep build' },
        { after: /\$ echo kept > note\.txt[\s\S]*more: $/, text: 'y' },
      ],
    });
    assert.equal(r.code, 0, r.screen);
    assert.ok(existsSync(join(ws, 'build')), 'the rejected command did not run');
    assert.equal(readFileSync(join(ws, 'note.txt'), 'utf8'), 'kept\n');
    assert.equal(fx.llm!.remainingTurns(), 0);
  });
});
