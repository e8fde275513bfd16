// Logbook: Show Agents in a trusted workspace: the built-in explorer and the workspace's own
// definitions are listed, a broken file is named with why it is left out, choosing one opens its
// file, and "New Agent…" writes a definition that loads as it is.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseAgentDefinition } from '../../../src/core/agents/definition';
import { loadAgents } from '../../../src/host/node/agents/agent-files';
import type { ShowAgentsResult } from '../../../src/host/vscode/agents/show-agents';
import { logbook, workspaceRoot } from './helpers';

describe('Logbook: Show Agents', function () {
  this.timeout(60_000);
  const dir = () => join(workspaceRoot(), '.logbook', 'agents');
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
  });

  it('lists the explorer and the workspace’s agents, names a broken file, and opens the one chosen', async () => {
    await logbook();
    mkdirSync(dir(), { recursive: true });
    const reviewer = join(dir(), 'reviewer.md');
    writeFileSync(
      reviewer,
      '---\nname: reviewer\ndescription: Reviews a diff.\nmode: plan\n---\nReview it.\n',
    );
    writeFileSync(join(dir(), 'broken.md'), '---\nname: Broken Name\ndescription: x\n---\n');
    const shown = await vscode.commands.executeCommand<ShowAgentsResult>('logbook.showAgents', {
      pick: 'reviewer',
    });
    assert.deepEqual([...shown.agents].sort(), ['explore', 'reviewer']);
    assert.equal(shown.leftOut.length, 1);
    assert.match(shown.leftOut[0]!, /broken\.md: "name" must be lowercase/);
    assert.equal(shown.opened, reviewer);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, reviewer);
  });

  it('New Agent… writes a definition that loads as it is, and opens it', async () => {
    await logbook();
    const shown = await vscode.commands.executeCommand<ShowAgentsResult>('logbook.showAgents', {
      pick: 'new',
      name: 'test-runner',
    });
    const file = join(dir(), 'test-runner.md');
    assert.equal(shown.opened, file);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file);
    const parsed = parseAgentDefinition(readFileSync(file, 'utf8'), file);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.equal(parsed.agent.name, 'test-runner');
    const loaded = loadAgents({ workspace: workspaceRoot(), env: process.env, trusted: true });
    assert.ok(
      loaded.agents.some((x) => x.name === 'test-runner'),
      `loaded as it is: ${loaded.errors.join('; ')}`,
    );
    assert.ok(existsSync(file));
  });
});
