import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { everythingStdio, faultStdio, probeStdio } from '../mcp/mcp-support';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture, filesContaining, terminalCall } from './fixtures';

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

  it('every value of a server env is redacted: tool results, terminal output, the model, logs, exports', async () => {
    // Written in place, not a ${env:...} reference: still a secret.
    const token = 'plain-config-token-7c1e9';
    const env = await fx.startLlm({
      name: 'cli-mcp-env',
      turns: [
        {
          reply: { toolCalls: [{ id: 'call_s', name: 'surroundings', arguments: { security_risk: 'LOW' } }] },
        },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [terminalCall('call_t', `echo ${token}`)] },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'redacted' }, reply: { content: `Saw ${token}.` } },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    // A second server that prints its environment on stderr and exits: its failure is reported.
    const leaky = {
      command: process.execPath,
      args: ['-e', 'console.error("starting with " + process.env.LEAKY_TOKEN); process.exit(3)'],
      env: { LEAKY_TOKEN: 'leaky-config-token-55aa' },
    };
    const config = configFile({ probe: probeStdio({ env: { PROBE_TOKEN: token, SHORT: 'on' } }), leaky });
    const r = await runCli(
      [
        'run',
        '--workspace',
        ws,
        '--task',
        'look around',
        '--store',
        store,
        '--mcp-config',
        config,
        '--confirm',
        'never',
      ],
      { env },
    );
    assert.equal(r.code, 0, printed(r));
    assert.equal(fx.llm!.remainingTurns(), 0, 'the terminal output reached the model redacted');
    assert.match(
      r.stderr,
      /\[mcp\] The MCP server "leaky" could not start: .*starting with \[redacted MCP leaky LEAKY_TOKEN\]/,
    );
    assert.match(r.stdout, /\[redacted MCP probe PROBE_TOKEN\]/);
    for (const secret of [token, 'leaky-config-token-55aa']) {
      assert.doesNotMatch(printed(r), new RegExp(secret), `${secret} printed by run`);
      assert.deepEqual(filesContaining(store, secret), [], `${secret} in the log`);
      assert.equal(
        fx.llm!.completionBodies().some((b) => JSON.stringify(b).includes(secret)),
        false,
      );
    }
    const shown = await runCli(['show', store]);
    assert.doesNotMatch(printed(shown), new RegExp(token));
    const out = join(fx.tmp(), 'export');
    const exported = await runCli(['export-openhands', store, out]);
    assert.equal(exported.code, 0, printed(exported));
    assert.deepEqual(filesContaining(out, token), []);
    // A value too short to be told from ordinary words is left alone.
    assert.doesNotMatch(printed(r), /redacted MCP probe SHORT/);
  });

  it('an unreadable or invalid file is a usage error before anything starts', async () => {
    const bad = join(fx.tmp(), 'bad.json');
    writeFileSync(bad, '{"servers": {}}');
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'hi', '--mcp-config', bad], {});
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /--mcp-config: the MCP configuration .* has no "mcpServers" object/);
  });
});
