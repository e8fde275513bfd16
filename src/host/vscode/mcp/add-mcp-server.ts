// `Logbook: Add MCP Server`: asks for a stdio command or an HTTP URL and writes the entry into
// `logbook.mcp.servers`. A secret (an API token in an env variable or a header) goes to
// SecretStorage and the setting holds `${secret:NAME}` instead. Takes its input as an argument
// too, so tests and other extensions can add a server without prompts.
import { parse } from 'shell-quote';
import * as vscode from 'vscode';
import {
  ignoredWorkspaceValues,
  settingIn,
  writeAcceptedWorkspaceValue,
  writeSetting,
} from '../settings/config';
import { MCP_SECRET_PREFIX, MCP_SERVERS_SETTING } from './editor-mcp-servers';

export interface AddMcpServerInput {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  /** Values to keep in SecretStorage, by secret name; refer to them as `${secret:NAME}`. */
  secrets?: Record<string, string>;
  target?: 'user' | 'workspace';
}

const NAME = /^[A-Za-z0-9_.-]{1,40}$/;

export async function addMcpServer(
  secrets: vscode.SecretStorage,
  arg?: unknown,
): Promise<string | undefined> {
  const input = isInput(arg) ? arg : await ask();
  if (!input) return undefined;
  if (!NAME.test(input.name))
    throw new Error('an MCP server name may only hold letters, digits, ".", "_" and "-" (at most 40).');
  if (!input.command === !input.url) throw new Error('an MCP server needs either a command or a URL.');
  for (const [name, value] of Object.entries(input.secrets ?? {}))
    await secrets.store(MCP_SECRET_PREFIX + name, value);
  const entry = input.command
    ? {
        command: input.command,
        args: input.args ?? [],
        ...(input.env && Object.keys(input.env).length ? { env: input.env } : {}),
      }
    : {
        url: input.url!,
        ...(input.headers && Object.keys(input.headers).length ? { headers: input.headers } : {}),
      };
  const target =
    input.target === 'workspace' && vscode.workspace.workspaceFolders?.length ? 'workspace' : 'user';
  const current = settingIn<Record<string, unknown>>(MCP_SERVERS_SETTING, target) ?? {};
  // The workspace's servers were in use (or there were none): the list with the user's new one
  // is accepted too. Servers the user never accepted stay ignored, and the notice asks again.
  const inUse =
    target === 'workspace' &&
    !ignoredWorkspaceValues().some((v) => v.key === MCP_SERVERS_SETTING && v.layer === 'workspace');
  const servers = { ...current, [input.name]: entry };
  if (inUse) await writeAcceptedWorkspaceValue(MCP_SERVERS_SETTING, servers);
  else await writeSetting(MCP_SERVERS_SETTING, servers, target);
  return input.name;
}

function isInput(v: unknown): v is AddMcpServerInput {
  return typeof v === 'object' && v !== null && typeof (v as AddMcpServerInput).name === 'string';
}

async function ask(): Promise<AddMcpServerInput | undefined> {
  const title = vscode.l10n.t('Logbook: Add MCP Server');
  const kind = await vscode.window.showQuickPick(
    [
      {
        label: vscode.l10n.t('Command (stdio)'),
        description: vscode.l10n.t(
          'a program Logbook starts, e.g. {0}',
          'npx -y @modelcontextprotocol/server-memory',
        ),
        id: 'stdio' as const,
      },
      {
        label: vscode.l10n.t('URL (HTTP)'),
        description: vscode.l10n.t('a server already running, spoken to over Streamable HTTP or SSE'),
        id: 'http' as const,
      },
    ],
    { title, placeHolder: vscode.l10n.t('How is the server reached?'), ignoreFocusOut: true },
  );
  if (!kind) return undefined;
  const name = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('A short name for the server (tools whose names clash get it in front)'),
    placeHolder: vscode.l10n.t('e.g. {0}', 'memory'),
    ignoreFocusOut: true,
    validateInput: (v) =>
      NAME.test(v) ? undefined : vscode.l10n.t('Letters, digits, ".", "_" and "-", at most 40.'),
  });
  if (!name) return undefined;
  const secrets: Record<string, string> = {};
  let input: AddMcpServerInput;
  if (kind.id === 'stdio') {
    const line = await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('The command and its arguments'),
      placeHolder: vscode.l10n.t('e.g. {0}', 'npx -y @modelcontextprotocol/server-memory'),
      ignoreFocusOut: true,
      validateInput: (v) => (words(v).length ? undefined : vscode.l10n.t('Enter a command.')),
    });
    if (!line) return undefined;
    const [command, ...args] = words(line);
    input = { name, command: command!, args };
    const secret = await askSecret(
      name,
      vscode.l10n.t(
        'Does the server need a secret in an environment variable? Its name (leave empty for none)',
      ),
      vscode.l10n.t('e.g. {0}', 'GITHUB_TOKEN'),
    );
    if (secret === null) return undefined;
    if (secret) {
      input.env = { [secret.key]: `\${secret:${secret.secretName}}` };
      secrets[secret.secretName] = secret.value;
    }
  } else {
    const url = await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('The server URL'),
      placeHolder: vscode.l10n.t('e.g. {0}', 'http://localhost:3001/mcp'),
      ignoreFocusOut: true,
      validateInput: (v) =>
        /^https?:\/\/\S+$/.test(v.trim()) ? undefined : vscode.l10n.t('Enter an http(s) URL.'),
    });
    if (!url) return undefined;
    input = { name, url: url.trim() };
    const secret = await askSecret(
      name,
      vscode.l10n.t('Does the server need a secret in a header? Its name (leave empty for none)'),
      vscode.l10n.t('e.g. {0}', 'Authorization'),
    );
    if (secret === null) return undefined;
    if (secret) {
      input.headers = { [secret.key]: `\${secret:${secret.secretName}}` };
      secrets[secret.secretName] = secret.value;
    }
  }
  const where = vscode.workspace.workspaceFolders?.length
    ? await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t('User settings'), id: 'user' as const },
          { label: vscode.l10n.t('Workspace settings'), id: 'workspace' as const },
        ],
        { title, placeHolder: vscode.l10n.t('Where to save the server?'), ignoreFocusOut: true },
      )
    : { id: 'user' as const };
  if (!where) return undefined;
  return { ...input, secrets, target: where.id };
}

/** undefined: no secret; null: cancelled. */
async function askSecret(
  server: string,
  question: string,
  example: string,
): Promise<{ key: string; value: string; secretName: string } | undefined | null> {
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('Logbook: Add MCP Server'),
    prompt: question,
    placeHolder: example,
    ignoreFocusOut: true,
  });
  if (key === undefined) return null;
  if (!key.trim()) return undefined;
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Logbook: Add MCP Server'),
    prompt: vscode.l10n.t("The value of {0} (kept in VS Code's secret storage, not in settings)", key.trim()),
    password: true,
    ignoreFocusOut: true,
  });
  if (!value) return null;
  const secretName = `${server}.${key.trim()}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  return { key: key.trim(), value, secretName };
}

function words(line: string): string[] {
  return parse(line).filter((w): w is string => typeof w === 'string');
}
