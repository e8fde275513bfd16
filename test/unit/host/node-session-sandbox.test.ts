// openNodeConversation with a sandbox: the agent's shell and the stdio MCP servers both start in it.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { observationText } from '../../../src/core/events';
import { parseMcpServers } from '../../../src/host/node/mcp';
import { openNodeConversation, type NodeSession } from '../../../src/host/node/node-session';
import { CommandSandbox, sandboxAvailability } from '../../../src/host/node/sandbox';
import { startScriptedLlm, type ScriptedLlm } from '../../support/llm-server';
import { probeStdio } from '../mcp/mcp-support';

describe('openNodeConversation with a sandbox', function () {
  this.timeout(30_000);
  let llm: ScriptedLlm | undefined;
  let session: NodeSession | undefined;
  let sandbox: CommandSandbox | undefined;

  before(() => {
    // Never a silent skip: the suite needs the sandbox (.ci/run installs bubblewrap).
    const found = sandboxAvailability();
    assert.ok(found.available, `no sandbox can start here: ${JSON.stringify(found)}`);
  });

  afterEach(async () => {
    await session?.close();
    await sandbox?.dispose();
    await llm?.close();
    session = sandbox = llm = undefined;
  });

  it('runs the shell and the MCP servers inside it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'logbook-session-sbx-'));
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    const outsideFile = join(root, 'outside.txt');
    writeFileSync(outsideFile, 'original');
    llm = await startScriptedLlm({
      scenario: {
        name: 'write-outside',
        turns: [
          {
            reply: {
              toolCalls: [
                {
                  id: 'call_write',
                  name: 'terminal',
                  arguments: {
                    command: `echo changed > ${outsideFile}; echo inside > inside.txt; ls /proc | grep -x ${process.pid} || echo no host pid`,
                    security_risk: 'LOW',
                    summary: 'write',
                  },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
        ],
      },
    });
    sandbox = new CommandSandbox({ setting: 'required', allowedHosts: () => [] });
    const mcpLog: string[] = [];
    session = await openNodeConversation({
      storeDir: join(root, 'conversation'),
      workspace,
      llmSettings: { baseUrl: llm.baseUrl, apiKey: 'test-key', model: 'scripted-model', maxRetries: 0 },
      confirmationMode: 'never',
      condenser: null,
      mcpServers: parseMcpServers({ mcpServers: { probe: probeStdio() } }),
      onMcpLog: (line) => mcpLog.push(line),
      sandbox,
    });
    assert.ok(
      mcpLog.some((l) => /"probe" started with 3 tools, in the sandbox/.test(l)),
      mcpLog.join('\n'),
    );
    const c = session.conversation;
    await c.sendMessage('write a file outside');
    assert.equal(await c.run(), 'finished');
    assert.equal(readFileSync(outsideFile, 'utf8'), 'original');
    assert.equal(readFileSync(join(workspace, 'inside.txt'), 'utf8'), 'inside\n');
    const observation = (await c.events()).find(
      (e) => e.kind === 'ObservationEvent' && e.tool_name === 'terminal',
    );
    assert.ok(observation?.kind === 'ObservationEvent');
    // Its own /tmp took the write (bwrap made the folders above the workspace there); the host's
    // processes are out of sight.
    assert.match(observationText(observation.observation), /^no host pid$/m);
  });
});
