// Issue 19, item 4 in the real extension host: the agent's terminal (both ways of running
// commands) starts without OPENAI_API_KEY or LOGBOOK_* although the window has them (test/host/run.mjs
// starts code-server with both), and a conversation never records the key the user stored.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentEnvironmentOptions } from '../../../src/core/secrets';
import { IntegratedTerminalPort, type TerminalMode } from '../../../src/host/vscode/ports/terminal-port';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel } from './helpers';

const PROBE =
  'echo "key=[$OPENAI_API_KEY] mode=[$LOGBOOK_TEST_MODE]"; env | grep -cE "^(OPENAI_API_KEY=|LOGBOOK_)"';
const STORED_KEY = 'sk-host-stored-5e6f7a8b9c0d-KEEP-OUT';

async function setShellIntegration(enabled: boolean | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('terminal.integrated')
    .update('shellIntegration.enabled', enabled, vscode.ConfigurationTarget.Global);
}

async function probe(mode: TerminalMode, environment?: AgentEnvironmentOptions): Promise<string> {
  const port = new IntegratedTerminalPort({
    title: `secrets ${mode}`,
    shellIntegrationTimeoutMs: 10_000,
    ...(environment ? { environment: async () => environment } : {}),
  });
  try {
    const r = await port.run(PROBE, { timeoutMs: 20_000 });
    assert.equal(port.mode, mode);
    return r.output.trim();
  } finally {
    port.dispose();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

for (const mode of ['shell-integration', 'pseudoterminal'] as const) {
  describe(`terminal secrets: the ${mode} terminal starts without Logbook's secrets`, function () {
    this.timeout(60_000);
    const windowKey = process.env.OPENAI_API_KEY ?? '';
    if (mode === 'pseudoterminal') {
      before(() => setShellIntegration(false));
      after(() => setShellIntegration(undefined));
    }

    it('the window has them: a terminal that is told to pass them on shows them', async () => {
      assert.ok(windowKey.length >= 8, 'test/host/run.mjs starts code-server with OPENAI_API_KEY');
      const out = await probe(mode, { pass: ['OPENAI_API_KEY', 'LOGBOOK_TEST_MODE'] });
      assert.deepEqual(out.split('\n'), [`key=[${windowKey}] mode=[1]`, '2']);
    });

    it('by default neither OPENAI_API_KEY nor any LOGBOOK_* variable is there', async () => {
      assert.deepEqual((await probe(mode)).split('\n'), ['key=[] mode=[]', '0']);
    });
  });
}

describe('terminal secrets: a conversation never records the stored key', function () {
  this.timeout(60_000);
  let llm: ScriptedLlm | undefined;
  after(async () => {
    await vscode.commands.executeCommand('logbook.setApiKey', '');
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await llm?.close();
  });

  it('the model`s text, env and echo hold a marker; the log, JSON and Markdown exports have no key', async () => {
    const marker = '[redacted API key]';
    llm = await scriptedModel({
      name: 'host-secrets',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            content: `I know the key: ${STORED_KEY}`,
            chunkSize: 4,
            toolCalls: [
              {
                id: 'call_env',
                name: 'terminal',
                arguments: {
                  command: `env; echo "typed=${STORED_KEY}"`,
                  security_risk: 'LOW',
                  summary: 'env',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: `typed=${marker}` },
          reply: { content: `Bye ${STORED_KEY}` },
        },
      ],
    });
    const cfg = vscode.workspace.getConfiguration('logbook');
    await cfg.update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    const { service } = await logbook();
    await vscode.commands.executeCommand('logbook.setApiKey', STORED_KEY);
    const streamed: string[] = [];
    const sub = service.onDidStream(({ delta }) => streamed.push(JSON.stringify(delta)));
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Find the key');
    const session = await service.session(id);
    try {
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    } finally {
      sub.dispose();
    }
    const auth = llm.requests.find((r) => r.path.endsWith('/chat/completions'))?.headers['authorization'];
    assert.equal(auth, `Bearer ${STORED_KEY}`, 'the key reached the endpoint, in the header');
    for (const [i, body] of llm.completionBodies().entries()) {
      assert.ok(!JSON.stringify(body).includes(STORED_KEY), `request ${i} carries the key`);
    }
    assert.ok(
      streamed.length > 0 && !streamed.join('').includes(STORED_KEY),
      'the streamed reply shows no key',
    );
    const events = JSON.stringify(await session.conversation.events());
    assert.ok(events.includes(`I know the key: ${marker}`), events);
    for (const file of filesUnder(join(service.root, id))) {
      assert.ok(!readFileSync(file, 'utf8').includes(STORED_KEY), `${file} contains the key`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'logbook-export-'));
    try {
      for (const format of ['json', 'markdown'] as const) {
        const target = join(dir, `conversation.${format}`);
        await vscode.commands.executeCommand('logbook.exportConversation', id, format, target);
        const text = readFileSync(target, 'utf8');
        assert.ok(text.includes(marker), `the ${format} export has the conversation`);
        assert.ok(!text.includes(STORED_KEY), `the ${format} export has the key`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
