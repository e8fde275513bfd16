// The MCP server configuration: the shape Claude Desktop, Cline and others use,
// `{"mcpServers": {"name": {"command", "args", "env"} | {"url", "headers"}}}`, plus the few
// optional fields Logbook reads (`alwaysAllow`, `disabled`, `timeout`, and for a stdio server
// `sandbox` and `allowedHosts`). The same shape comes from the CLI's --mcp-config file and from the
// `logbook.mcp.servers` setting.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { lazySchema } from '../../../core/schema/lazy-schema';

// Fields both kinds of server take; a function, so that nothing is built when the module loads.
const common = () => ({
  /** Tool names (the server's own) that run without asking. */
  alwaysAllow: z.array(z.string()).optional(),
  /** The same list under the name newer Cline files use. */
  autoApprove: z.array(z.string()).optional(),
  disabled: z.boolean().optional(),
  /** Seconds a call may take (default 60). */
  timeout: z.number().positive().optional(),
});

/** A host name, `*.example.com` for every name under it, or `*` for any (as `logbook.sandbox.allowedHosts`). */
const HOST_PATTERN = /^(\*|(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*)$/;
const HOST_MESSAGE = 'a host is a name like "api.example.com" or "*.example.com" (no scheme, port or path)';

const StdioServerSchema = lazySchema(() =>
  z.looseObject({
    type: z.literal('stdio').optional(),
    command: z.string().min(1, 'command must not be empty'),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    /** `false`: the server runs outside the command sandbox, with the user's permissions. */
    sandbox: z.boolean().optional(),
    /** Hosts this server may reach besides `logbook.sandbox.allowedHosts` (when sandboxed). */
    allowedHosts: z.array(z.string().regex(HOST_PATTERN, HOST_MESSAGE)).optional(),
    ...common(),
  }),
);

const HttpServerSchema = lazySchema(() =>
  z.looseObject({
    type: z.enum(['http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
    headers: z.record(z.string(), z.string()).optional(),
    ...common(),
  }),
);

export type StdioServerConfig = z.infer<typeof StdioServerSchema>;
export type HttpServerConfig = z.infer<typeof HttpServerSchema>;
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export function isStdio(c: McpServerConfig): c is StdioServerConfig {
  return typeof (c as StdioServerConfig).command === 'string';
}

/** Server names become tool-name prefixes and Output lines: short, plain. */
const NAME = /^[A-Za-z0-9_.-]{1,40}$/;

export interface ParsedMcpConfig {
  servers: Map<string, McpServerConfig>;
  /** One line per server left out, saying why. */
  problems: string[];
}

/**
 * The servers of a configuration object (`{mcpServers: {...}}`, or the map itself, as the VS Code
 * setting holds it). A bad entry is left out with a reason; the others still start.
 */
export function parseMcpServers(value: unknown): ParsedMcpConfig {
  const servers = new Map<string, McpServerConfig>();
  const problems: string[] = [];
  const root = value && typeof value === 'object' && 'mcpServers' in value ? value.mcpServers : value;
  if (root === undefined || root === null) return { servers, problems };
  if (typeof root !== 'object' || Array.isArray(root)) {
    problems.push('"mcpServers" must be an object of servers by name.');
    return { servers, problems };
  }
  for (const [name, entry] of Object.entries(root as Record<string, unknown>)) {
    if (!NAME.test(name)) {
      problems.push(
        `MCP server "${name.slice(0, 60)}": a name may only hold letters, digits, ".", "_" and "-" (at most 40).`,
      );
      continue;
    }
    const isUrl = entry !== null && typeof entry === 'object' && 'url' in entry;
    const parsed = (isUrl ? HttpServerSchema : StdioServerSchema).safeParse(entry);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ');
      problems.push(`MCP server "${name}" is left out: ${why}.`);
      continue;
    }
    if (parsed.data.disabled) continue;
    servers.set(name, parsed.data);
  }
  return { servers, problems };
}

/** Reads a configuration file; a missing or unparsable file is an error (the user named it). */
export function readMcpConfigFile(path: string, read?: (text: string) => void): ParsedMcpConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the MCP configuration ${path}: ${(err as Error).message}`);
  }
  // The very text parsed here (a caller keeps its fingerprint, so a later change is noticed).
  read?.(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`the MCP configuration ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!json || typeof json !== 'object' || !('mcpServers' in json))
    throw new Error(`the MCP configuration ${path} has no "mcpServers" object.`);
  return parseMcpServers(json);
}

/** Whether two entries start the same server (a changed entry restarts it). */
export function sameServer(a: McpServerConfig, b: McpServerConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
