import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';

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
});
