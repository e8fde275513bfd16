// A delegated agent whose definition names a model runs on that model in the editor, as in the CLI:
// the scripted endpoint sees the child's requests under the definition's model and the parent's
// under the configured one, and the delegation card names the child's model. A model the endpoint
// does not know stops the child at once, and the parent reads why, naming the model.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HostMessage } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import type { Turn } from '../../support/llm-server/scenario';
import { chatTask, scriptedModel, until, workspaceRoot } from './helpers';

type Header = Extract<HostMessage, { type: 'header' }>['header'];

const TASK = 'Review the README.';

function defineAgent(name: string, model: string): void {
  const dir = join(workspaceRoot(), '.logbook', 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${name}.md`),
    `---\nname: ${name}\ndescription: Reviews a file.\ntools: [think]\nmode: plan\nmodel: ${model}\n---\nReview briefly.\n`,
  );
}

function delegateTo(agent: string): Turn {
  return {
    match: { lastRole: 'user', lastContentIncludes: 'review it', model: 'scripted-model' },
    reply: {
      toolCalls: [
        {
          id: 'call_delegate',
          name: 'delegate',
          arguments: { command: 'delegate', ids: ['r'], agent_types: [agent], tasks: { r: TASK } },
        },
      ],
    },
  };
}

describe('Sub-agents: a definition’s model', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function run(text: string) {
    const { controller, session, headers } = await chatTask(text);
    try {
      await until(() => !['running', 'idle'].includes(session.conversation.status), 'the parent ends');
      return { session, status: await session.settled(), headers: headers() };
    } finally {
      controller.dispose();
    }
  }

  it('runs the child on its definition’s model and names it on the card', async () => {
    defineAgent('reviewer', 'reviewer-model');
    llm = await scriptedModel({
      name: 'host-sub-agent-model',
      turns: [
        delegateTo('reviewer'),
        {
          match: { lastRole: 'user', lastContentIncludes: TASK, model: 'reviewer-model' },
          reply: { toolCalls: [{ name: 'finish', arguments: { message: 'Reviewed: fine.' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Reviewed: fine.', model: 'scripted-model' },
          reply: { content: 'The reviewer found it fine.' },
        },
      ],
    });
    const { status, headers, session } = await run('Please review it.');
    assert.equal(status, 'finished', session.conversation.state.lastError?.message);
    assert.deepEqual(
      llm.completionBodies().map((b) => b.model),
      ['scripted-model', 'reviewer-model', 'scripted-model'],
    );
    const card = (h: Header) => h.children?.find((c) => c.agentName === 'reviewer');
    const last = headers.filter((h) => card(h)).at(-1);
    assert.ok(last, 'the header lists the reviewer');
    assert.equal(card(last)!.model, 'reviewer-model');
    assert.equal(card(last)!.status, 'finished');
  });

  it('a model the endpoint does not know: the parent reads why, naming the model', async () => {
    defineAgent('ghost', 'no-such-model');
    llm = await scriptedModel({
      name: 'host-sub-agent-missing-model',
      turns: [
        delegateTo('ghost'),
        {
          match: { model: 'no-such-model' },
          fault: {
            status: 404,
            code: 'model_not_found',
            message: 'The model `no-such-model` does not exist.',
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'no-such-model', model: 'scripted-model' },
          reply: { content: 'The reviewer could not run.' },
        },
      ],
    });
    const { status, session, headers } = await run('Please review it.');
    assert.equal(status, 'finished', session.conversation.state.lastError?.message);
    const events = await session.conversation.events();
    const delegation = events.find((e) => e.kind === 'ActionEvent' && e.tool_name === 'delegate')!;
    const observation = events.find((e) => e.kind === 'ObservationEvent' && e.action_id === delegation.id);
    const text = JSON.stringify(observation);
    assert.match(text, /stopped \(error\) on the model \\"no-such-model\\" its definition names/);
    assert.match(text, /does not exist/);
    assert.equal(llm.remainingTurns(), 0);
    const child = headers.flatMap((h) => h.children ?? []).at(-1);
    assert.equal(child?.model, 'no-such-model');
    assert.equal(child?.status, 'error');
  });
});
