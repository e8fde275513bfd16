// The editor's parts of a conversation, handed to the session factory both hosts share
// (host/node/session/agent-session.ts): workspace edits, one integrated terminal per conversation
// (in the sandbox when there is one), the editor's and the MCP servers' tools, the window's secrets,
// and the settings read through config.ts at each use.
import * as vscode from 'vscode';
import {
  llmSupportsImages,
  readAgentSettings,
  readCondenserSettings,
  readLlmProvider,
  terminalPassEnvironment,
  terminalTimeoutSeconds,
} from '../settings/config';
import { LlmSummarizingCondenser } from '../../../core/context';
import { IntegratedTerminalPort } from '../ports/terminal-port';
import { WorkspaceFilePort } from '../ports/workspace-file-port';
import { settingAwarePort } from '../checkpoints/checkpoints';
import { joinSecrets } from '../../node/mcp';
import { joinToolSources } from '../../../core/agent/tool-sources';
import { editorToolSource } from '../lm/editor-tools';
import { type AgentSession, openAgentSession } from '../../node/session/agent-session';
import type { SessionDeps } from './session-deps';
import type { ToolSpec } from '../../../core/tools';
import type { ConversationStore } from '../../node/session/conversation-store';
import { readWebRules, readWebSearch } from '../settings/web-settings';
import { type EditorHooks, editorHooks } from '../hooks/editor-hooks';

/** The conversation's integrated terminal, made at the agent's first command and named after it. */
export interface EditorTerminal {
  port?: IntegratedTerminalPort;
  title: () => string;
}

export async function openEditorAgentSession(
  deps: SessionDeps,
  store: ConversationStore,
): Promise<AgentSession & { terminal: EditorTerminal; hooks: EditorHooks }> {
  const webSearch = readWebSearch(deps.log);
  // One integrated terminal per conversation, named after it, created when the agent first runs a command.
  const terminal: EditorTerminal = { title: () => 'Agent' };
  const knownSecrets = deps.llm.knownSecrets;
  const box = deps.sandbox;
  const mcp = deps.mcp;
  const external = deps.external;
  // An external agent's permission requests are actions of their own tool; it delegates to no one.
  const hostTools = external ? (builtIn: ToolSpec[]) => [...builtIn, external.permissionTool()] : deps.tools;
  const ownSecrets = external
    ? joinSecrets(
        () => knownSecrets.current,
        () => external.secrets(),
      )
    : () => knownSecrets.current;
  // Read once as the conversation opens: a changed hook file asks again in the next one.
  const hooks = editorHooks(deps.cwd);
  const session = await openAgentSession({
    id: deps.id,
    dir: deps.dir,
    cwd: deps.cwd,
    store,
    llm: external ?? deps.llm,
    // A delegated agent's caps win over the editor's settings.
    settings: () => ({ ...readAgentSettings(), ...deps.settings }),
    tools: {
      terminalTimeoutSec: terminalTimeoutSeconds(),
      // The settings are read at each fetch: a host added to logbook.web.allowedHosts counts at once.
      web: { rules: readWebRules, ...(webSearch ? { search: webSearch } : {}) },
    },
    toolSource: (tools) => {
      const mcpSource = mcp?.source(deps.mcpTools);
      const editor = editorToolSource(
        () => [...tools.map((t) => t.name), ...(mcpSource?.tools() ?? []).map((t) => t.name)],
        deps.log,
      );
      return joinToolSources(mcpSource ? [mcpSource, editor] : [editor]);
    },
    ports: {
      files: new WorkspaceFilePort({
        writable: () => box?.sandbox.writableFolders ?? [],
        roots: () => workspaceRoots(deps),
      }),
      terminal: (place) =>
        (terminal.port = new IntegratedTerminalPort({
          title: terminal.title(),
          cwd: place.startDir(),
          // The shell starts without the key (and LOGBOOK_*), unless the user passes a name on.
          environment: async () => {
            await knownSecrets.refresh();
            return {
              pass: terminalPassEnvironment(),
              secretValues: knownSecrets.current.map((s) => s.value),
            };
          },
          ...(box
            ? {
                sandbox: {
                  sandbox: box.sandbox,
                  workspaces: () => workspaceRoots(deps),
                  readOnly: place.readOnly,
                  launcherDir: box.launcherDir,
                },
              }
            : {}),
        })),
    },
    roots: () => workspaceRoots(deps),
    secrets: mcp ? joinSecrets(ownSecrets, () => mcp.knownSecrets()) : ownSecrets,
    condenser: new LlmSummarizingCondenser(readCondenserSettings()),
    // The editor's Language Model API takes text only: its models get the note, not the bytes.
    supportsImages: () => llmSupportsImages() && readLlmProvider() !== 'vscode',
    skills: deps.skills,
    userEditNotes: () => deps.userEditNotes(),
    ...(deps.checkpoints ? { checkpoints: settingAwarePort(deps.checkpoints) } : {}),
    ...(box ? { sandbox: box.sandbox } : {}),
    ...(hostTools ? { hostTools } : {}),
    ...(deps.agent && !external ? { agent: deps.agent } : {}),
    // The editor's terminal (or its fallback, a login shell) reads the user's startup files.
    shell: () => ({ startup: 'user' }),
    // The list grows when the user accepts a repository's hooks before a run.
    ...(hooks.list.length || hooks.waiting ? { hooks: () => hooks.list } : {}),
  });
  return { ...session, terminal, hooks };
}

/** A worktree task's own folder, else the window's folders (or where the conversation runs, without any). */
function workspaceRoots({ roots, cwd }: SessionDeps): string[] {
  if (roots) return [...roots];
  const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
  return folders.length ? folders : [cwd];
}
