// The MCP servers of this window, from the `logbook.mcp.servers` setting. One hub for every
// conversation of the window: a server starts when the first conversation runs, restarts when its
// entry or a secret it uses changes, and stops with the window. An untrusted workspace starts none (the setting is
// also restricted there, so a workspace cannot name a command to run).
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { ToolSource } from '../../../core/agent/ports';
import type { McpToolRef } from '../../../core/agents/mcp-tool-refs';
import type { NamedSecret } from '../../../core/secrets';
import { builtInToolNames } from '../../node/session/agent-tools';
import { McpHub, parseMcpServers } from '../../node/mcp';
import type { CommandSandbox } from '../../node/sandbox';
import { editorSetting, terminalPassEnvironment } from '../settings/config';

/** SecretStorage key of `${secret:NAME}`. */
export const MCP_SECRET_PREFIX = 'logbook.mcp.secret.';
export const MCP_SERVERS_SETTING = 'mcp.servers';

/** The names of the servers the setting configures (none in an untrusted workspace), for agent definitions. */
export function configuredMcpServerNames(): string[] {
  if (!vscode.workspace.isTrusted) return [];
  return [...parseMcpServers(editorSetting<unknown>(MCP_SERVERS_SETTING, () => undefined)).servers.keys()];
}

export class EditorMcpServers implements vscode.Disposable {
  private readonly hub: McpHub;
  private readonly subscriptions: vscode.Disposable[];
  /** Configurations are applied one after the other. */
  private applying: Promise<void>;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: vscode.LogOutputChannel,
    /** Values the servers' environment must not carry (the API key). */
    secretValues: () => readonly string[],
    /**
     * The window's sandbox the stdio servers start in (an entry's `"sandbox": false` opts out).
     * Writable: the workspace folders only, never the home folder a window without one falls back to.
     */
    private readonly sandbox?: CommandSandbox,
  ) {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    this.hub = new McpHub({
      cwd: folders[0] ?? homedir(),
      ...(sandbox ? { sandbox, workspaces: folders } : {}),
      baseEnv: process.env,
      passEnvironment: terminalPassEnvironment(),
      secretValues,
      resolve: async (kind, name) =>
        kind === 'secret' ? await secrets.get(MCP_SECRET_PREFIX + name) : process.env[name],
      // The web tools too: a conversation offers them when its settings say so.
      reservedNames: builtInToolNames(),
      log: (line) => log.info(line),
    });
    this.applying = this.apply();
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`logbook.${MCP_SERVERS_SETTING}`)) this.reapply();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reapply()),
      secrets.onDidChange((e) => {
        if (!e.key.startsWith(MCP_SECRET_PREFIX)) return;
        const name = e.key.slice(MCP_SECRET_PREFIX.length);
        this.applying = this.applying.then(() => this.hub.secretChanged(name));
      }),
    ];
  }

  /**
   * A conversation's view of the servers: starting them waits for the configuration in effect.
   * `select`: only the tools a delegated agent's definition names.
   */
  source(select?: readonly McpToolRef[]): ToolSource {
    const view = this.hub.source(select);
    return {
      prepare: async () => {
        await this.applying;
        if (vscode.workspace.isTrusted) await view.prepare();
      },
      tools: () => (vscode.workspace.isTrusted ? view.tools() : []),
      takeNotices: () => view.takeNotices(),
    };
  }

  /** What the servers' entries hold (every `env` value, credential headers, what references stood for), to redact. */
  knownSecrets(): readonly NamedSecret[] {
    return this.hub.secrets();
  }

  /**
   * The resources of the servers running now, for mentions (none in an untrusted workspace). The
   * servers are not started for this: they start when a conversation runs.
   */
  async resources(): Promise<Awaited<ReturnType<McpHub['resources']>>> {
    return vscode.workspace.isTrusted ? this.hub.resources() : [];
  }

  async prompts(): Promise<Awaited<ReturnType<McpHub['prompts']>>> {
    return vscode.workspace.isTrusted ? this.hub.prompts() : [];
  }

  getPrompt(server: string, name: string): Promise<string> {
    if (!vscode.workspace.isTrusted) return Promise.reject(new Error('the workspace is not trusted'));
    return this.hub.getPrompt(server, name);
  }

  readResource(server: string, uri: string): ReturnType<McpHub['readResource']> {
    if (!vscode.workspace.isTrusted) return Promise.reject(new Error('the workspace is not trusted'));
    return this.hub.readResource(server, uri);
  }

  running(): { server: string; tools: string[] }[] {
    return this.hub.running();
  }

  /** Each configured server's state and the configuration's problems (Show Diagnostics). */
  status(): ReturnType<McpHub['status']> {
    return this.hub.status();
  }

  /** Resolves once the setting as it is now is in effect (the servers it changed are stopped). */
  settled(): Promise<void> {
    return this.applying;
  }

  private reapply(): void {
    this.applying = this.applying.then(() => this.apply());
  }

  private async apply(): Promise<void> {
    const value = vscode.workspace.isTrusted
      ? editorSetting<unknown>(MCP_SERVERS_SETTING, (problem) => this.log.error(`MCP servers: ${problem}`))
      : {};
    await this.hub.configure(parseMcpServers(value)).catch((err: unknown) => {
      this.log.error(`MCP servers could not be configured: ${String(err)}`);
    });
  }

  async dispose(): Promise<void> {
    for (const s of this.subscriptions) s.dispose();
    await this.applying;
    await this.hub.close();
    await this.sandbox?.dispose();
  }
}
