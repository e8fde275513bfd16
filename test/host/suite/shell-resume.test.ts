// A conversation whose agent moved its shell (`cd sub`) and then stopped, opened again in this
// window: its integrated terminal starts where the agent left it, so a later command runs where the
// model believes it is. The first part is written by a real `logbook` CLI process (the same core and
// log), as a previous window would have.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, spawnCli, workspaceRoot } from './helpers';

describe('A conversation opened again keeps where its shell was', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  let ws: string | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    if (ws) rmSync(ws, { recursive: true, force: true });
    ws = undefined;
  });

  it('the terminal starts in the folder the last command moved to', async () => {
    const { service } = await logbook();
    ws = join(workspaceRoot(), `shell-resume-${randomUUID().slice(0, 8)}`);
    mkdirSync(ws);
    const terminal = (id: string, command: string) => ({
      id,
      name: 'terminal',
      arguments: { command, security_risk: 'LOW', summary: command },
    });
    llm = await scriptedModel({
      name: 'host-shell-resume',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'go into sub' },
          reply: { toolCalls: [terminal('call_cd', 'mkdir -p sub && cd sub')] },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'sub' }, reply: { content: 'In sub now.' } },
        {
          match: { lastRole: 'user', lastContentIncludes: 'where are you' },
          reply: { toolCalls: [terminal('call_pwd', 'pwd')] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'There.' } },
      ],
    });
    const id = randomUUID();
    const child = spawnCli(
      [
        'run',
        '--workspace',
        ws,
        '--store',
        join(service.root, id),
        '--confirm',
        'never',
        '--task',
        'go into sub',
      ],
      llm,
    );
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, 'the first part ran to the end');

    const session = await service.session(id);
    try {
      assert.equal(realpathSync(session.conversation.state.shellCwd ?? ''), realpathSync(join(ws, 'sub')));
      await session.send('where are you');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      const events = await session.conversation.events();
      const last = events
        .filter((e) => e.kind === 'ObservationEvent' && e.observation.kind === 'TerminalObservation')
        .at(-1);
      assert.ok(last && last.kind === 'ObservationEvent');
      const text = JSON.stringify(last.observation.content);
      assert.ok(text.includes(realpathSync(join(ws, 'sub'))), text);
    } finally {
      await service.delete(id);
    }
  });
});
