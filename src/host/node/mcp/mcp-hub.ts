// The MCP servers of a CLI run or a VS Code window. Servers start when a conversation's run starts
// (not when Logbook starts), in parallel; each conversation gets a ToolSource view that offers the
// tools of the servers running now and tells it, once, about each server that failed to start or
// stopped. A changed configuration restarts only the servers whose entry changed; `close` stops all.
// Given a CommandSandbox, stdio servers start inside it (see server-sandbox.ts).
import { agentEnvironment, type NamedSecret, SecretRedactor, serverSecrets } from '../../../core/secrets';
import type { ToolSource, ToolSourceNotice } from '../../../core/agent/ports';
import {
  assignToolNames,
  createMcpTool,
  DEFAULT_RESULT_LIMITS,
  type McpToolInfo,
  type ResultLimits,
} from '../../../core/mcp';
import type { ToolSpec } from '../../../core/tools';
import { ALL_TOOLS_OF_SERVER, type McpToolRef, selectsMcpTool } from '../../../core/agents/mcp-tool-refs';
import type { McpConnection, McpPromptInfo, McpResourceInfo } from './mcp-connection';
import { isStdio, type McpServerConfig, type ParsedMcpConfig, sameServer } from './mcp-config';
import { expandReferences, type ReferenceResolver, secretNames } from './references';
import type { CommandSandbox } from '../sandbox';
import { serverLaunch, type ServerLaunch } from './server-sandbox';

export interface McpHubOptions {
  /** Working folder of stdio servers (the workspace). */
  cwd: string;
  /** The environment stdio servers start from, scrubbed like the agent's terminal. */
  baseEnv: Readonly<Record<string, string | undefined>>;
  /** Variables of Logbook's own the user lets through anyway. */
  passEnvironment?: readonly string[];
  /** Secret values a server's environment must not carry (the API key). */
  secretValues?: () => readonly string[];
  /** Fills in `${secret:NAME}` / `${env:NAME}` references. */
  resolve: ReferenceResolver;
  /** Names of the built-in tools: an MCP tool of the same name gets its server's name in front. */
  reservedNames: readonly string[];
  /** Where to say what happened (Output channel, stderr). */
  log: (line: string) => void;
  startTimeoutMs?: number;
  limits?: ResultLimits;
  /**
   * Starts stdio servers inside this sandbox, each with a network of its own; an entry with
   * `"sandbox": false` opts out. Absent: servers run with the user's permissions, as they did.
   */
  sandbox?: CommandSandbox;
  /** Folders a sandboxed server may write (default: `cwd`). */
  workspaces?: readonly string[];
}

type ServerState =
  | { kind: 'idle' }
  | { kind: 'starting'; done: Promise<void> }
  | { kind: 'ready'; conn: McpConnection; tools: McpToolInfo[] }
  | { kind: 'failed'; problem: Problem };

interface Problem {
  /** Distinguishes one failure from the next (a view says each once). */
  id: number;
  message: string;
}

interface Entry {
  config: McpServerConfig;
  state: ServerState;
  /** Its `env` values, credential headers and what references stood for: redacted from the log. */
  secrets: NamedSecret[];
  /** The server was reconfigured or removed while starting: drop what it started. */
  stale?: boolean;
  /** Stops what the server's sandbox holds (its proxy) once the server is gone. */
  release?: () => Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;

export interface McpServerStatus {
  server: string;
  transport: 'stdio' | 'http';
  /** `not started`: servers start with the first task that runs, not with Logbook. */
  state: 'not started' | 'starting' | 'running' | 'failed';
  tools: number;
  problem?: string;
}

export class McpHub {
  private readonly entries = new Map<string, Entry>();
  private configProblems: Problem[] = [];
  private specs: ToolSpec[] = [];
  private problemIds = 0;
  private readonly loggedNotes = new Set<string>();
  private secretList: NamedSecret[] = [];
  private logRedactor: SecretRedactor | undefined;
  private closed = false;

  constructor(private readonly opts: McpHubOptions) {}

  /** Takes a new configuration: removed or changed servers stop; new ones start at the next run. */
  async configure(config: ParsedMcpConfig): Promise<void> {
    this.configProblems = config.problems.map((message) => this.problem(message));
    for (const p of this.configProblems) this.say(p.message);
    const stops: Promise<void>[] = [];
    for (const [name, entry] of this.entries) {
      const next = config.servers.get(name);
      if (next && sameServer(next, entry.config)) continue;
      this.entries.delete(name);
      stops.push(this.stop(name, entry, next ? 'its configuration changed' : 'it was removed'));
    }
    for (const [name, cfg] of config.servers)
      if (!this.entries.has(name))
        this.entries.set(name, { config: cfg, state: { kind: 'idle' }, secrets: [] });
    await Promise.all(stops);
    this.rebuild();
  }

  /**
   * The value of `${secret:NAME}` changed: the servers that use it stop, and start again with the
   * new value at the next run (a server started with the old token would go on failing).
   */
  async secretChanged(name: string): Promise<void> {
    const stops: Promise<void>[] = [];
    for (const [server, entry] of this.entries) {
      const cfg = entry.config;
      if (entry.state.kind === 'idle' || !secretNames(isStdio(cfg) ? cfg.env : cfg.headers).has(name))
        continue;
      this.entries.set(server, { config: cfg, state: { kind: 'idle' }, secrets: [] });
      stops.push(this.stop(server, entry, `the secret "${name}" it uses changed`));
    }
    await Promise.all(stops);
    this.rebuild();
  }

  /**
   * A view for one conversation. `select`: only the tools these references name (a delegated
   * agent's definition); a reference to a tool its running server does not offer is told once.
   */
  source(select?: readonly McpToolRef[]): ToolSource {
    const told = new Set<number | string>();
    // The same array while the hub's does not change, so callers may cache by identity.
    let last: { all: ToolSpec[]; picked: ToolSpec[] } | undefined;
    const tools = (): ToolSpec[] => {
      if (!select) return this.specs;
      if (last?.all !== this.specs) {
        const picked = this.specs.filter((s) => {
          const origin = this.originOf.get(s);
          return origin !== undefined && selectsMcpTool(select, origin.server, origin.tool);
        });
        last = { all: this.specs, picked };
      }
      return last.picked;
    };
    return {
      prepare: () => this.startIdle(),
      tools,
      takeNotices: () => {
        const out: ToolSourceNotice[] = [];
        const tell = (source: string, p: Problem) => {
          if (told.has(p.id)) return;
          told.add(p.id);
          out.push({ source, message: p.message });
        };
        for (const p of this.configProblems) tell('mcp', p);
        for (const [name, e] of this.entries)
          if (e.state.kind === 'failed') tell(`mcp:${name}`, e.state.problem);
        for (const ref of select ?? []) {
          const message = this.missing(ref);
          if (!message || told.has(ref.text)) continue;
          told.add(ref.text);
          out.push({ source: `mcp:${ref.server}`, message });
        }
        return out;
      },
    };
  }

  /** Why a reference names no tool: its server is not configured, or runs without such a tool. */
  private missing(ref: McpToolRef): string | undefined {
    const e = this.entries.get(ref.server);
    if (!e)
      return `The agent's definition names "${ref.text}", but no MCP server "${ref.server}" is configured.`;
    if (e.state.kind !== 'ready' || ref.tool === ALL_TOOLS_OF_SERVER) return undefined;
    if (e.state.tools.some((t) => t.name === ref.tool)) return undefined;
    return (
      `The agent's definition names "${ref.text}", but the MCP server "${ref.server}" offers no tool ` +
      `"${ref.tool}" (it offers: ${e.state.tools.map((t) => t.name).join(', ') || 'none'}).`
    );
  }

  /**
   * The resources of the servers running now, each with its server's name (a server that does not
   * answer within `timeoutMs`, or fails, lists none: a mention list must not wait on it).
   */
  async resources(timeoutMs = 1_500): Promise<(McpResourceInfo & { server: string })[]> {
    return this.fromRunning((conn) => conn.listResources(), timeoutMs);
  }

  /** The prompts of the servers running now, each with its server's name (as `resources`). */
  async prompts(timeoutMs = 1_500): Promise<(McpPromptInfo & { server: string })[]> {
    return this.fromRunning((conn) => conn.listPrompts(), timeoutMs);
  }

  /** What each running server lists, with its name; one that fails or is slow lists nothing. */
  private async fromRunning<T extends object>(
    list: (conn: McpConnection) => Promise<T[]>,
    timeoutMs: number,
  ): Promise<(T & { server: string })[]> {
    const lists = await Promise.all(
      [...this.entries].map(([server, e]) =>
        e.state.kind === 'ready'
          ? withTimeout(list(e.state.conn), timeoutMs)
              .then((items) => items.map((item) => ({ ...item, server })))
              .catch(() => [])
          : [],
      ),
    );
    return lists.flat();
  }

  /** The connection of a running server, or an error saying it is not running. */
  private connectionOf(server: string): McpConnection {
    const e = this.entries.get(server);
    if (!e || e.state.kind !== 'ready') throw new Error(`the MCP server "${server}" is not running`);
    return e.state.conn;
  }

  /** A prompt's messages as text, from the named server (which must be running). */
  async getPrompt(server: string, name: string): Promise<string> {
    return this.connectionOf(server).getPrompt(name);
  }

  /** A resource's contents from the named server (which must be running). */
  async readResource(
    server: string,
    uri: string,
  ): Promise<{ text: string; binary: { mimeType: string; bytes: number }[] }> {
    return this.connectionOf(server).readResource(uri);
  }

  /**
   * What the servers' entries hold that must not be recorded: every `env` value, credential header
   * values, and what `${secret:...}` and `${env:...}` references stood for. Redacted from events.
   */
  secrets(): readonly NamedSecret[] {
    return this.secretList;
  }

  /** Names of servers running now, with their tools' names as offered. */
  running(): { server: string; tools: string[] }[] {
    return [...this.entries]
      .filter(([, e]) => e.state.kind === 'ready')
      .map(([server]) => ({
        server,
        tools: this.specs.filter((s) => this.originOf.get(s)?.server === server).map((s) => s.name),
      }));
  }

  /** Each configured server as it is now, and what was wrong with the configuration (diagnostics). */
  status(): { servers: McpServerStatus[]; problems: string[] } {
    const running = new Map(this.running().map((r) => [r.server, r.tools.length]));
    const servers = [...this.entries].map(([server, e]): McpServerStatus => {
      const transport = isStdio(e.config) ? 'stdio' : 'http';
      switch (e.state.kind) {
        case 'idle':
          return { server, transport, state: 'not started', tools: 0 };
        case 'starting':
          return { server, transport, state: 'starting', tools: 0 };
        case 'ready':
          return { server, transport, state: 'running', tools: running.get(server) ?? 0 };
        case 'failed':
          return {
            server,
            transport,
            state: 'failed',
            tools: 0,
            problem: this.redact(e.state.problem.message),
          };
      }
    });
    return { servers, problems: this.configProblems.map((p) => this.redact(p.message)) };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.entries];
    this.entries.clear();
    this.specs = [];
    await Promise.all(all.map(([name, e]) => this.stop(name, e, null)));
  }

  // --- starting and stopping ---------------------------------------------------------------

  private async startIdle(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const [name, entry] of this.entries) {
      if (entry.state.kind === 'idle') {
        const done = this.start(name, entry);
        entry.state = { kind: 'starting', done };
      }
      if (entry.state.kind === 'starting') waits.push(entry.state.done);
    }
    await Promise.all(waits);
  }

  private async start(name: string, entry: Entry): Promise<void> {
    const cfg = entry.config;
    let launched: ServerLaunch | undefined;
    try {
      const env = isStdio(cfg)
        ? await expandReferences(cfg.env, this.opts.resolve)
        : { values: {}, secrets: [] };
      const headers = isStdio(cfg)
        ? { values: {}, secrets: [] }
        : await expandReferences(cfg.headers, this.opts.resolve);
      entry.secrets = serverSecrets(name, {
        env: env.values,
        headers: headers.values,
        referenced: [...env.secrets, ...headers.secrets],
      });
      this.rebuildSecrets();
      const scrubbed = agentEnvironment(this.opts.baseEnv, {
        pass: this.opts.passEnvironment ?? [],
        secretValues: this.opts.secretValues?.() ?? [],
      }).env;
      if (isStdio(cfg) && this.opts.sandbox) {
        launched = await serverLaunch(name, cfg, {
          sandbox: this.opts.sandbox,
          workspaces: this.opts.workspaces ?? [this.opts.cwd],
          cwd: this.opts.cwd,
          pass: this.opts.passEnvironment ?? [],
          env: env.values,
          log: (line) => this.say(line),
        });
        entry.release = launched.release;
        if (launched.unsandboxed) this.say(launched.unsandboxed);
      }
      // Loaded on first use (its own bundle, scripts/lazy-bundles.mjs): the SDK, ajv and zod v3
      // cost every window and command that runs no MCP server.
      const { McpConnection } = await import('./mcp-connection');
      const conn = await McpConnection.connect(name, cfg, {
        env: { ...scrubbed, ...env.values },
        headers: headers.values,
        cwd: this.opts.cwd,
        ...(launched?.launch ? { launch: launched.launch } : {}),
        startTimeoutMs: this.opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        onLost: (reason) => this.lost(name, entry, reason),
      });
      if (entry.stale || this.closed) {
        await conn.close();
        await this.release(entry);
        return;
      }
      const tools = await conn.listTools().catch(async (err: unknown) => {
        await conn.close();
        throw err;
      });
      if (entry.stale || this.closed) {
        await conn.close();
        await this.release(entry);
        return;
      }
      entry.state = { kind: 'ready', conn, tools };
      this.say(
        `MCP server "${name}" started with ${tools.length} tool${tools.length === 1 ? '' : 's'}${launched?.launch ? ', in the sandbox' : ''}.`,
      );
      this.rebuild();
    } catch (err) {
      await this.release(entry);
      if (entry.stale || this.closed) return;
      const why = (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
      const message = `The MCP server "${name}" could not start: ${why}. The conversation continues without its tools.`;
      entry.state = { kind: 'failed', problem: this.problem(message) };
      this.say(message);
    }
  }

  private lost(name: string, entry: Entry, reason: string): void {
    if (this.entries.get(name) !== entry || entry.state.kind !== 'ready') return;
    const message = `The MCP server "${name}" stopped (${reason}). Its tools are no longer offered; the conversation continues without them.`;
    entry.state = { kind: 'failed', problem: this.problem(message) };
    this.say(message);
    void this.release(entry);
    this.rebuild();
  }

  private async stop(name: string, entry: Entry, why: string | null): Promise<void> {
    entry.stale = true;
    // A server still starting is not waited for (a hung start would hold up the window's close):
    // `start` closes what it opened once it sees the entry is stale.
    const now = entry.state;
    if (now.kind === 'ready') {
      await now.conn.close();
      await this.release(entry);
      if (why) this.say(`MCP server "${name}" stopped: ${why}.`);
    }
  }

  private async release(entry: Entry): Promise<void> {
    const release = entry.release;
    entry.release = undefined;
    await release?.().catch(() => undefined);
  }

  // --- the tools offered --------------------------------------------------------------------

  /** The server of each offered tool, and the tool's own name there. */
  private originOf = new WeakMap<ToolSpec, { server: string; tool: string }>();

  /** The tool specs of every running server, named without clashes, in configuration order. */
  private rebuild(): void {
    const named = [...this.entries].flatMap(([server, e]) => {
      const s = e.state;
      return s.kind === 'ready' ? s.tools.map((tool) => ({ server, tool, conn: s.conn })) : [];
    });
    const { assigned, notes } = assignToolNames(this.opts.reservedNames, named);
    for (const note of notes) {
      if (this.loggedNotes.has(note)) continue;
      this.loggedNotes.add(note);
      this.say(note);
    }
    this.originOf = new WeakMap();
    this.specs = assigned.map((a) => {
      const entry = this.entries.get(a.server)!;
      const spec = createMcpTool(a.conn, a.tool, {
        exposedName: a.exposed,
        alwaysAllow: [...(entry.config.alwaysAllow ?? []), ...(entry.config.autoApprove ?? [])].includes(
          a.tool.name,
        ),
        limits: this.opts.limits ?? DEFAULT_RESULT_LIMITS,
      }) as ToolSpec;
      this.originOf.set(spec, { server: a.server, tool: a.tool.name });
      return spec;
    });
  }

  private rebuildSecrets(): void {
    this.secretList = [...this.entries].flatMap(([, e]) => e.secrets);
    this.logRedactor = undefined;
  }

  /** Says what happened, without a value a server's entry holds (a server's stderr may print them). */
  private say(line: string): void {
    this.opts.log(this.redact(line));
  }

  private redact(text: string): string {
    this.logRedactor ??= new SecretRedactor(this.secretList);
    return this.logRedactor.redactText(text);
  }

  private problem(message: string): Problem {
    return { id: ++this.problemIds, message: this.redact(message) };
  }
}

/**
 * Two secret lists as one, the same array while neither changes (the conversation's redactor is
 * cached by identity).
 */
export function joinSecrets(
  a: () => readonly NamedSecret[],
  b: () => readonly NamedSecret[],
): () => readonly NamedSecret[] {
  let last:
    { a: readonly NamedSecret[]; b: readonly NamedSecret[]; list: readonly NamedSecret[] } | undefined;
  return () => {
    const [x, y] = [a(), b()];
    if (last?.a !== x || last.b !== y) last = { a: x, b: y, list: y.length ? [...x, ...y] : x };
    return last.list;
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
