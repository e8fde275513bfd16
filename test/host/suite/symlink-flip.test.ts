// A symlink flipped between the question and the write, in the real extension host: the model asks
// to create a Makefile (code the user will run, so it waits) through a workspace link that leads to
// an ordinary folder; before the user confirms, the link is pointed outside the workspace. The file
// tools judge the path again when they run, so the approved write is refused and names where the
// path leads now; nothing lands outside and the log never claims a file that is not there. The same
// for a search whose folder is relinked after the question, in act and in plan mode.
import * as assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentMode } from '../../../src/core/state';
import type { ScriptedLlm, ScriptedToolCall } from '../../support/llm-server';
import { EXTENSION_ID, logbook, scriptedModel, workspaceRoot } from './helpers';

/** Outside the workspace, in the repository's ignored test-results/ (not under /tmp). */
const outsideRoot = join(
  vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
  'test-results',
  `symlink-flip-${process.pid}`,
);

describe('symlink flipped between the question and the write (issue 47)', function () {
  this.timeout(90_000);
  let llm: ScriptedLlm | undefined;
  let outside: string;
  let secrets: string;
  let safe: string;
  let link: string;

  beforeEach(() => {
    const id = Math.random().toString(36).slice(2, 8);
    outside = join(outsideRoot, `outside-${id}`);
    secrets = join(outsideRoot, `secrets-${id}`);
    mkdirSync(outside, { recursive: true });
    mkdirSync(secrets, { recursive: true });
    writeFileSync(join(outside, 'private.txt'), 'OUTSIDE-CANARY-7731\n');
    writeFileSync(join(secrets, 'key.txt'), 'SECRET-CANARY-5521\n');
    safe = join(workspaceRoot(), `flip-safe-${id}`);
    mkdirSync(safe);
    link = join(workspaceRoot(), `flip-${id}`);
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(link, { force: true });
    rmSync(safe, { recursive: true, force: true });
    rmSync(outsideRoot, { recursive: true, force: true });
  });

  /** Starts a task whose model makes `call`, then answers whatever comes back with "Done.". */
  async function waitingOn(name: string, mode: AgentMode, call: ScriptedToolCall) {
    llm = await scriptedModel({
      name,
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [call] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
      fallback: { content: 'Done.' },
    });
    const { service } = await logbook();
    await service.setActive(undefined);
    await service.sendMessage(`Flip case: ${name}`, undefined, mode);
    const id = service.activeId!;
    const session = await service.session(id);
    assert.equal(await session.settled(), 'waiting_for_confirmation');
    const pending = session.conversation.awaitingConfirmation();
    assert.equal(pending.length, 1);
    return { service, id, session, pending: pending[0]! };
  }

  /** Points the link somewhere else, as a hostile command or another program would. */
  function relink(target: string): void {
    rmSync(link);
    symlinkSync(target, link);
  }

  it('act mode: the approved create is refused once its path leads outside, naming where; nothing lands outside', async () => {
    symlinkSync(safe, link);
    const rel = `${link.slice(workspaceRoot().length + 1)}/Makefile`;
    const { service, id, session, pending } = await waitingOn('flip-create', 'act', {
      name: 'file_editor',
      arguments: {
        command: 'create',
        path: rel,
        file_text: 'all:\n\ttrue\n',
        security_risk: 'LOW',
        summary: 'an ordinary edit',
      },
    });
    // The card's question names why it waits: a Makefile is code the user will run.
    assert.match(session.header().pendingRisks?.[0]?.reason ?? '', /Makefile is code you will run/);

    relink(outside);
    await service.approve(id, [pending.id]);
    await session.settled();

    assert.deepEqual(readdirSync(outside), ['private.txt'], 'nothing landed outside');
    assert.ok(!existsSync(join(safe, 'Makefile')), 'nor where the link led at the question');
    const events = await session.conversation.events();
    const observations = events.filter((e) => e.kind === 'ObservationEvent');
    assert.equal(observations.length, 1, JSON.stringify(events).slice(0, 3000));
    const answer = JSON.stringify(observations[0]);
    assert.ok(answer.includes(`now leads to ${join(outside, 'Makefile')}`), answer);
    assert.match(answer, /Nothing was read or written/);
    assert.ok(!/Created/.test(answer), 'the log claims no file');
  });

  it('act mode: a write through a link that stays inside names, in the log, where the file really landed', async () => {
    symlinkSync(safe, link);
    const rel = `${link.slice(workspaceRoot().length + 1)}/notes.md`;
    llm = await scriptedModel({
      name: 'flip-inside',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: rel,
                  file_text: '# notes\n',
                  security_risk: 'LOW',
                  summary: 'notes',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
      fallback: { content: 'Done.' },
    });
    const { service } = await logbook();
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    try {
      await service.setActive(undefined);
      await service.sendMessage('Flip case: inside', undefined, 'act');
      const session = await service.session(service.activeId!);
      assert.equal(await session.settled(), 'finished');
      const landed = join(safe, 'notes.md');
      assert.equal(readFileSync(landed, 'utf8'), '# notes\n');
      const events = await session.conversation.events();
      const action = events.find((e) => e.kind === 'ActionEvent' && JSON.stringify(e).includes('notes.md'));
      assert.equal((action as unknown as { action: { real_path: string } }).action.real_path, landed);
      const answer = JSON.stringify(events.find((e) => e.kind === 'ObservationEvent'));
      assert.ok(answer.includes(`Created ${landed}`), answer);
    } finally {
      await vscode.workspace
        .getConfiguration('logbook')
        .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: an approved search whose folder was relinked to another one searches nothing`, async () => {
      symlinkSync(outside, link);
      const rel = link.slice(workspaceRoot().length + 1);
      const { service, id, session } = await waitingOn(`flip-grep-${mode}`, mode, {
        name: 'grep',
        arguments: { pattern: 'CANARY', path: rel },
      });
      // The user approves a search of that folder; before it runs, the link leads elsewhere.
      relink(secrets);
      const pending = session.conversation.awaitingConfirmation();
      await service.approve(id, [pending[0]!.id]);
      await session.settled();
      const requests = JSON.stringify(llm!.completionBodies());
      assert.ok(!requests.includes('SECRET-CANARY'), 'the relinked folder was searched');
      assert.ok(requests.includes(`now leads to ${secrets}`), 'the model reads where it leads now');
      const events = JSON.stringify(await session.conversation.events());
      assert.ok(!events.includes('SECRET-CANARY'), 'the log holds nothing of the relinked folder');
    });
  }
});
