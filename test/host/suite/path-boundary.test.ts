// The path boundary in the real extension host: a model that writes through a leading-space
// absolute path, a symlinked folder that leads out of the workspace, or `..` with file_editor is
// refused before anything is written (no confirmation could allow it); the same with a terminal
// redirection runs contained in the sandbox; a read of /etc/shadow from the terminal, or a
// file_editor create of a file that runs later (.vscode/tasks.json), waits for the user's
// confirmation in the default `risky` mode. Nothing is written outside, through the VS Code file
// and terminal ports as through the agent.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm, ScriptedToolCall } from '../../support/llm-server';
import { OutsideWorkspaceError, WorkspaceFilePort } from '../../../src/host/vscode/ports/workspace-file-port';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

describe('path boundary: escapes wait for confirmation and write nothing outside', () => {
  let llm: ScriptedLlm | undefined;
  let outside: string;
  let link: string;

  beforeEach(() => {
    outside = mkdtempSync(join(tmpdir(), 'logbook-host-outside-'));
    link = join(workspaceRoot(), `boundary-link-${randomUUID().slice(0, 8)}`);
    symlinkSync(outside, link);
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    unlinkSync(link);
    rmSync(outside, { recursive: true, force: true });
  });

  const cases: [string, () => string][] = [
    ['a leading-space absolute path', () => ` ${join(outside, 'space.txt')}`],
    ['a symlinked folder out of the workspace', () => `${relative(workspaceRoot(), link)}/linked.txt`],
    ['a .. path out of the workspace', () => relative(workspaceRoot(), join(outside, 'dotdot.txt'))],
  ];

  /** Runs one call the model rates LOW; it must wait, and after a rejection nothing is outside. */
  async function assertWaitsAndWritesNothing(label: string, call: ScriptedToolCall): Promise<void> {
    llm = await scriptedModel({
      name: `host-path-boundary-${label}`,
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [call] } },
        { match: { lastRole: 'tool', toolResultIncludes: 'not allowed' }, reply: { content: 'Understood.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', `Tidy up (${label})`);
    const session = await service.session(id);
    assert.equal(await session.settled(), 'waiting_for_confirmation');
    const pending = session.conversation.awaitingConfirmation();
    assert.equal(pending.length, 1);
    assert.deepEqual(readdirSync(outside), [], 'nothing may be written before the user confirms');

    await service.reject(id, [pending[0]!.id], 'Going outside the workspace is not allowed.');
    assert.equal(await session.settled(), 'finished');
    assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
    const events = await session.conversation.events();
    assert.ok(!events.some((e) => e.kind === 'ObservationEvent'), 'the action never ran');
    assert.ok(events.some((e) => e.kind === 'UserRejectObservation'));
    assert.equal(llm.remainingTurns(), 0);
  }

  /** Runs one file_editor write the model rates LOW: refused before it runs, nothing outside. */
  async function assertRefused(label: string, call: ScriptedToolCall): Promise<void> {
    llm = await scriptedModel({
      name: `host-path-refused-${label}`,
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [call] } },
        { match: { lastRole: 'tool', toolResultIncludes: 'Refused' }, reply: { content: 'Understood.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', `Tidy up (${label})`);
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', 'nothing was asked');
    const events = await session.conversation.events();
    const observation = JSON.stringify(events.find((e) => e.kind === 'ObservationEvent'));
    assert.match(observation, /Refused: .*outside the folders the agent may write/);
    assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
    assert.equal(llm.remainingTurns(), 0);
  }

  /**
   * Runs a command the sandbox contains: it runs unasked (the rules' finding is LOW inside the
   * sandbox, with its reason kept) and fails there, so nothing lands outside.
   */
  async function assertRunsContained(label: string, command: string): Promise<void> {
    llm = await scriptedModel({
      name: `host-path-contained-${label}`,
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_escape',
                name: 'terminal',
                arguments: { command, security_risk: 'LOW', summary: 'tidy up' },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Understood.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', `Tidy up (${label})`);
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');
    const events = await session.conversation.events();
    const observation = JSON.stringify(events.find((e) => e.kind === 'ObservationEvent'));
    // Read-only, or not there: the folder is under /tmp, which the sandbox replaces with its own.
    assert.match(observation, /Read-only file system|No such file or directory/);
    assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
    assert.equal(llm.remainingTurns(), 0);
  }

  // The terminal port: the same escapes written as shell redirections run contained in the
  // sandbox; a private file read is not contained (the sandbox hides secrets, not every file) and waits.
  const contained: [string, () => string][] = [
    ['a redirect through /tmp/..', () => `echo escaped > /tmp/..${join(outside, 'term.txt')}`],
    [
      'a redirect through a symlinked folder',
      () => `echo escaped > ${relative(workspaceRoot(), link)}/t.txt`,
    ],
  ];
  for (const [label, commandOf] of contained) {
    it(`the terminal with ${label} runs in the sandbox and writes nothing outside`, async () => {
      await assertRunsContained(label, commandOf());
    });
  }
  it('the terminal with a read of /etc/shadow waits; rejected, nothing runs', async () => {
    await assertWaitsAndWritesNothing('a read of /etc/shadow', {
      id: 'call_escape',
      name: 'terminal',
      arguments: { command: 'cat /etc/shadow', security_risk: 'LOW', summary: 'tidy up' },
    });
  });

  for (const [label, pathOf] of cases) {
    it(`file_editor create through ${label} is refused; nothing is written`, async () => {
      await assertRefused(label, {
        id: 'call_escape',
        name: 'file_editor',
        arguments: {
          command: 'create',
          path: pathOf(),
          file_text: 'escaped\n',
          security_risk: 'LOW',
          summary: 'write a note',
        },
      });
    });
  }

  it('file_editor create of .vscode/tasks.json waits as HIGH, saying it runs later; rejected, nothing is written', async () => {
    const tasks = join(workspaceRoot(), '.vscode', 'tasks.json');
    assert.ok(!existsSync(tasks), 'the fixture has no tasks.json');
    llm = await scriptedModel({
      name: 'host-runs-later-tasks',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_tasks',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: '.vscode/tasks.json',
                  file_text: '{ "version": "2.0.0", "tasks": [] }\n',
                  security_risk: 'LOW',
                  summary: 'add a task',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'not allowed' }, reply: { content: 'Understood.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Add a task');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'waiting_for_confirmation');
    const [risk] = session.header().pendingRisks ?? [];
    assert.equal(risk?.risk, 'HIGH', JSON.stringify(risk));
    assert.equal(risk?.byRules, true);
    assert.match(
      risk?.reason ?? '',
      /\.vscode\/tasks\.json runs later outside the sandbox, in your own context/,
    );
    assert.ok(!existsSync(tasks), 'nothing is written before the user answers');
    const pending = session.conversation.awaitingConfirmation();
    await service.reject(id, [pending[0]!.id], 'Editor tasks are not allowed.');
    assert.equal(await session.settled(), 'finished');
    assert.ok(!existsSync(tasks));
  });

  it('the file port asks before writing through a symlink out of the workspace, and refuses when not allowed', async () => {
    const asked: string[] = [];
    const port = new WorkspaceFilePort({
      confirmOutside: async (p) => {
        asked.push(p);
        return false;
      },
    });
    await assert.rejects(port.writeText(join(link, 'port.txt'), 'x'), OutsideWorkspaceError);
    await assert.rejects(port.delete(join(link, 'port.txt')), OutsideWorkspaceError);
    assert.equal(asked.length, 2);
    assert.match(asked[0]!, /a symlink to .*logbook-host-outside-.*port\.txt/);
    assert.deepEqual(readdirSync(outside), []);
  });
});
