import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { everythingStdio, faultStdio } from '../mcp/mcp-support';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

describe('logbook run --mcp-config', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  function configFile(servers: Record<string, unknown>): string {
    const file = join(fx.tmp(), 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: servers }));
    return file;
  }

  it('offers the servers tools, asks before an unannotated one, approve reuses the same servers', async () => {
    const env = await fx.startLlm({
      name: 'cli-mcp',
      turns: [
        {
          reply: {
            toolCalls: [
              { id: 'call_echo', name: 'echo', arguments: { message: 'from the cli' } },
              { id: 'call_plain', name: 'plain', arguments: { note: 'n1', security_risk: 'LOW' } },
            ],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'noted: n1' }, reply: { content: 'All done.' } },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const config = configFile({ everything: everythingStdio, faults: faultStdio() });
    const first = await runCli(
      [
        'run',
        '--workspace',
        ws,
        '--task',
        'use the tools',
        '--store',
        store,
        '--mcp-config',
        config,
        '--json',
      ],
      { env },
    );
    assert.equal(first.code, 2, printed(first)); // waits for confirmation of `plain`
    assert.match(first.stderr, /\[mcp\] MCP server "everything" started with \d+ tools/);
    const actions = jsonLines(first).filter((e) => e.kind === 'ActionEvent');
    assert.deepEqual(
      actions.map((a) => a.action),
      [
        { data: { message: 'from the cli' }, kind: 'MCPToolAction' },
        { data: { note: 'n1' }, kind: 'MCPToolAction' },
      ],
    );
    // `show` starts no server: it rates the held call by what the log recorded of the tool (no
    // annotations: MEDIUM, whatever the model said), as the gate held it.
    const shown = JSON.parse((await runCli(['show', store, '--json'])).stdout) as {
      pending_actions: { tool: string; risk: string; model_risk: string; reasons: string[] }[];
    };
    const held = shown.pending_actions.find((p) => p.tool === 'plain');
    assert.equal(held?.risk, 'MEDIUM', JSON.stringify(shown.pending_actions));
    assert.equal(held?.model_risk, 'LOW');
    assert.ok(
      held?.reasons.some((r) => /faults gives no hints about this tool/.test(r)),
      JSON.stringify(held),
    );
    const second = await runCli(['approve', store, '--json'], { env });
    assert.equal(second.code, 0, printed(second));
    const observations = jsonLines(second).filter((e) => e.kind === 'ObservationEvent');
    assert.deepEqual(
      observations.map((o) => (o.observation as { content: unknown }).content),
      [[{ type: 'text', text: 'Echo: from the cli' }], [{ type: 'text', text: 'noted: n1' }]],
    );
    assert.equal(fx.llm!.remainingTurns(), 0);
  });

  it('a server that cannot start: a [tools] line, and the run finishes without it', async () => {
    const env = await fx.startLlm({
      name: 'cli-mcp-fail',
      turns: [{ reply: { content: 'No tools needed.' } }],
    });
    const config = configFile({ gone: { command: join(fx.tmp(), 'no-such-server') } });
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'hi', '--mcp-config', config], { env });
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stdout, /\[tools\] The MCP server "gone" could not start: .*ENOENT/);
  });

  it('an unreadable or invalid file is a usage error before anything starts', async () => {
    const bad = join(fx.tmp(), 'bad.json');
    writeFileSync(bad, '{"servers": {}}');
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'hi', '--mcp-config', bad], {});
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /--mcp-config: the MCP configuration .* has no "mcpServers" object/);
  });
});
