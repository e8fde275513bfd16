import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';
import { deriveState } from '../../../src/core/state';
import type { Event } from '../../../src/core/events';

type Json = Record<string, unknown>;

const toolNames = (body: Json): string[] =>
  ((body.tools as Json[] | undefined) ?? []).map((t) => String((t.function as Json).name)).sort();

describe('handoff switches the tool set (scripted model)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it("after transfer_to_agent the requests offer the new agent's tools, and a call outside them is refused", async () => {
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(ws, '.logbook', 'agents', 'reader.md'),
      '---\nname: reader\ndescription: Reads only.\ntools: [grep, glob, think]\nmode: plan\n---\nOnly read.\n',
    );
    const env = await fx.startLlm({
      name: 'handoff-tools',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'hand it over' },
          reply: {
            toolCalls: [{ id: 'c_t', name: 'transfer_to_agent', arguments: { agent_name: 'reader' } }],
          },
        },
        {
          note: 'the reader tries the terminal it was not given',
          match: { lastRole: 'tool', toolResultIncludes: 'now handled by the reader agent' },
          reply: { toolCalls: [terminalCall('c_ls', 'ls', 'LOW')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'has no terminal tool' },
          reply: { toolCalls: [{ id: 'c_f', name: 'finish', arguments: { message: 'read' } }] },
        },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'hand it over'], { env });
    assert.equal(r.code, 0, printed(r));
    const bodies = fx.llm!.completionBodies() as Json[];
    assert.equal(bodies.length, 3);
    const before = toolNames(bodies[0]!);
    assert.ok(before.includes('terminal') && before.includes('file_editor'), before.join(', '));
    for (const after of bodies.slice(1))
      assert.deepEqual(toolNames(after), ['finish', 'glob', 'grep', 'think', 'transfer_to_agent']);

    const log = await readLogJson(onlyConversationDir(ws));
    // The terminal call was answered with the refusal, and never ran.
    const answers = log.filter((e) => e.kind !== 'ActionEvent' && e.tool_name === 'terminal');
    assert.ok(answers.length > 0, 'the terminal call is answered');
    for (const e of answers) assert.match(JSON.stringify(e), /has no terminal tool/);
  });

  it("a handoff puts the conversation in the new agent's mode, recorded as the Plan/Act switch is", async () => {
    const ws = fx.tmp();
    const dir = join(ws, '.logbook', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'reader.md'),
      '---\nname: reader\ndescription: Reads only.\ntools: [grep, think]\nmode: plan\n---\nOnly read.\n',
    );
    writeFileSync(
      join(dir, 'writer.md'),
      '---\nname: writer\ndescription: Writes.\ntools: [file_editor, think]\n---\nWrite it.\n',
    );
    const env = await fx.startLlm({
      name: 'handoff-mode',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'plan then build' },
          reply: {
            toolCalls: [{ id: 'c_1', name: 'transfer_to_agent', arguments: { agent_name: 'reader' } }],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'in plan mode' },
          reply: {
            toolCalls: [{ id: 'c_2', name: 'transfer_to_agent', arguments: { agent_name: 'writer' } }],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'in act mode' },
          reply: { toolCalls: [{ id: 'c_f', name: 'finish', arguments: { message: 'built' } }] },
        },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'plan then build'], { env });
    assert.equal(r.code, 0, printed(r));
    const log = await readLogJson(onlyConversationDir(ws));
    const modes = log.flatMap((e, i) =>
      e.key === 'agent_mode' ? [{ i, mode: e.value, by: e.agent_name }] : [],
    );
    assert.deepEqual(
      modes.map((m) => [m.mode, m.by]),
      [
        ['plan', 'reader'],
        ['act', 'writer'],
      ],
    );
    const stateAt = (n: number) => deriveState(log.slice(0, n) as unknown as Event[]).mode;
    assert.equal(stateAt(modes[0]!.i), 'act', 'act before the handoff');
    assert.equal(stateAt(modes[0]!.i + 1), 'plan', 'plan once the reader took over');
    assert.equal(stateAt(log.length), 'act', 'act again with the writer');
    // The requests the reader made were in plan mode (the prompt says so).
    const bodies = fx.llm!.completionBodies() as Json[];
    assert.match(JSON.stringify(bodies[1]!.messages), /PLAN MODE is on/);
    assert.doesNotMatch(JSON.stringify(bodies[2]!.messages), /PLAN MODE is on/);
  });
});
