// Logbook: Show Agents — the agents a conversation in this window may hand work to, as the main
// agent's prompt names them: the built-in explorer, the user's and the workspace's definitions.
// Choosing one opens its file; "New Agent…" writes a definition in the workspace from a template.
// A held definition (written while a conversation ran) is listed apart; choosing it opens it and
// asks before accepting it.
// An untrusted workspace uses none, and says so rather than listing what it would not load.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { AGENT_NAME_PATTERN, MAIN_AGENT, type AgentDefinition } from '../../../core/agents/definition';
import type { HeldDefinition } from '../../../core/agents/definition-trust';
import { loadAgents, workspaceAgentsDir } from '../../node/agents/agent-files';
import { ACCEPT_AGENT_DEFINITION_COMMAND } from './held-agents';
import { configuredMcpServerNames } from '../mcp/editor-mcp-servers';

type AgentItem = vscode.QuickPickItem & {
  agent?: AgentDefinition;
  create?: true;
  error?: string;
  held?: HeldDefinition;
};

/** What a caller (a test, a walkthrough step) may choose without the picker: an agent's name or `new`. */
export interface ShowAgentsChoice {
  pick: string;
  /** The new agent's name, for `pick: 'new'`. */
  name?: string;
}

/** What the command listed and opened: the agents' names, the files left out, the file opened. */
export interface ShowAgentsResult {
  untrusted?: true;
  agents: string[];
  leftOut: string[];
  /** Definitions written while a conversation ran, not used until accepted (a trusted workspace's). */
  held?: string[];
  opened?: string;
}

export function registerShowAgents(): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('logbook.showAgents', (choice?: ShowAgentsChoice) => showAgents(choice)),
  ];
}

async function showAgents(choice?: ShowAgentsChoice): Promise<ShowAgentsResult> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!vscode.workspace.isTrusted) {
    if (choice) return { untrusted: true, agents: [], leftOut: [] };
    const manage = vscode.l10n.t('Manage Workspace Trust');
    const answer = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'This workspace is not trusted: Logbook runs no tools here, so no agent is used, and the definitions in .logbook/agents are not read.',
      ),
      manage,
    );
    if (answer === manage) await vscode.commands.executeCommand('workbench.trust.manage');
    return { untrusted: true, agents: [], leftOut: [] };
  }
  const loaded = loadAgents({
    workspace: workspace ?? '',
    env: process.env,
    trusted: workspace !== undefined,
    mcpServers: configuredMcpServerNames(),
  });
  const items: AgentItem[] = loaded.agents.map((agent) => ({
    label: `$(hubot) ${agent.name}`,
    description: [
      agent.mode === 'plan' ? vscode.l10n.t('reads only') : vscode.l10n.t('reads and changes'),
      agent.tools ? agent.tools.join(', ') : vscode.l10n.t('all built-in tools and MCP tools'),
    ].join(' · '),
    detail: `${agent.description} — ${agent.origin === 'built-in' ? vscode.l10n.t('built in') : vscode.workspace.asRelativePath(agent.origin)}`,
    agent,
  }));
  for (const h of loaded.held)
    items.push({
      label: `$(shield) ${h.name}`,
      description: vscode.l10n.t('held: written while a conversation ran; choose to read and accept it'),
      detail: vscode.workspace.asRelativePath(h.origin),
      held: h,
    });
  for (const error of loaded.errors)
    items.push({ label: `$(warning) ${vscode.l10n.t('Left out')}`, detail: error, error });
  if (workspace) items.push({ label: `$(add) ${vscode.l10n.t('New Agent…')}`, create: true });
  const result: ShowAgentsResult = {
    agents: loaded.agents.map((a) => a.name),
    leftOut: loaded.errors,
    held: loaded.held.map((h) => h.name),
  };
  const picked = choice
    ? items.find((i) => (choice.pick === 'new' ? i.create : i.agent?.name === choice.pick))
    : await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t('Logbook: Agents the main agent may hand work to'),
        placeHolder: vscode.l10n.t('Choose one to open its definition'),
        matchOnDescription: true,
        matchOnDetail: true,
      });
  if (!picked) return result;
  if (picked.held) {
    // Read first, then accepted as shown (held-agents.ts).
    await vscode.commands.executeCommand(ACCEPT_AGENT_DEFINITION_COMMAND, picked.held.name);
    return { ...result, opened: picked.held.origin };
  }
  if (picked.create && workspace) {
    const opened = await newAgent(workspace, choice?.name);
    return { ...result, ...(opened ? { opened } : {}) };
  }
  const origin = picked.agent?.origin ?? picked.error?.split(': ')[0];
  if (origin && origin !== 'built-in' && existsSync(origin)) {
    await vscode.window.showTextDocument(vscode.Uri.file(origin));
    return { ...result, opened: origin };
  }
  if (picked.agent)
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        '{0} is built in: {1} Define an agent of the same name in .logbook/agents to change it.',
        picked.agent.name,
        picked.agent.description,
      ),
    );
  return result;
}

/** Writes `.logbook/agents/NAME.md` from the template and opens it; its path, or nothing if cancelled. */
async function newAgent(workspace: string, given?: string): Promise<string | undefined> {
  const dir = workspaceAgentsDir(workspace);
  const problem = (v: string): string | undefined =>
    !AGENT_NAME_PATTERN.test(v)
      ? vscode.l10n.t('Lowercase letters, digits, - and _, starting with a letter')
      : v === MAIN_AGENT
        ? vscode.l10n.t('"main" names the main agent; choose another name')
        : existsSync(join(dir, `${v}.md`))
          ? vscode.l10n.t('{0} exists already', `.logbook/agents/${v}.md`)
          : undefined;
  if (given !== undefined && problem(given)) throw new Error(problem(given));
  const name =
    given ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('New Agent'),
      prompt: vscode.l10n.t('Its name, as the main agent will call it'),
      placeHolder: 'test-runner',
      validateInput: problem,
    }));
  if (!name) return undefined;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.md`);
  writeFileSync(file, agentTemplate(name), { flag: 'wx' });
  await vscode.window.showTextDocument(vscode.Uri.file(file));
  return file;
}

/** A definition that parses as it is: the user edits its description, tools and instructions. */
export function agentTemplate(name: string): string {
  return [
    '---',
    `name: ${name}`,
    'description: What this agent does, in one sentence the main agent reads when choosing it.',
    'tools: [file_editor, glob, grep, terminal] # built-in tools by name; remove the line for all of them',
    'mode: act # plan: reads only',
    'max_iterations: 20',
    '---',
    '',
    'Its instructions: what to do with the task it is given, and what to say when it calls finish.',
    '',
  ].join('\n');
}
