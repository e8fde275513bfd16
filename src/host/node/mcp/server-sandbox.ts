// How a stdio MCP server starts inside the command sandbox: its command line becomes bubblewrap's,
// with the workspace writable, secrets hidden and a network of its own (a proxy that lets through
// `logbook.sandbox.allowedHosts` plus the entry's `allowedHosts`, and logs what it turns away).
// An entry with `"sandbox": false` runs as before, and the log says so.
import { resolve } from 'node:path';
import {
  type CommandSandbox,
  findExecutable,
  installFolder,
  isExecutable,
  type SandboxState,
} from '../sandbox';
import type { StdioServerConfig } from './mcp-config';

/** What a stdio server's transport spawns instead of the entry's own command. */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface ServerLaunch {
  /** Absent: the server starts as its entry says, with the hub's environment. */
  launch?: StdioLaunch;
  /** Stops the server's own proxy; call once the server has stopped. */
  release: () => Promise<void>;
  /** A line for the log when the hub has a sandbox but this server runs outside it. */
  unsandboxed?: string;
}

export interface ServerSandboxOptions {
  sandbox: CommandSandbox;
  /** Folders the server may write. */
  workspaces: readonly string[];
  /** Where the server starts when its entry has no `cwd`. */
  cwd: string;
  /** Names of the host's variables the user lets through (`passEnvironment`). */
  pass: readonly string[];
  /** The entry's own `env`, references filled in. */
  env: Record<string, string>;
  log: (line: string) => void;
}

const NOTHING_TO_RELEASE = async (): Promise<void> => undefined;

/**
 * Inside the sandbox a missing program is only an exit code of bwrap's; outside it is the spawn
 * error users know (ENOENT), which the hub reports with the server's name. So look first.
 */
function assertRunnable(command: string, cwd: string, path: string | undefined): void {
  const found = command.includes('/')
    ? isExecutable(resolve(cwd, command))
    : findExecutable(command, path) !== undefined;
  if (found) return;
  throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT', path: command });
}

export async function serverLaunch(
  name: string,
  cfg: StdioServerConfig,
  opts: ServerSandboxOptions,
): Promise<ServerLaunch> {
  if (cfg.sandbox === false)
    return {
      release: NOTHING_TO_RELEASE,
      unsandboxed: `MCP server "${name}" runs unsandboxed ("sandbox": false in its entry): it has your permissions, files and network.`,
    };
  assertRunnable(cfg.command, cfg.cwd ?? opts.cwd, opts.env['PATH']);
  const turnedAway = new Set<string>();
  const box = opts.sandbox.withOwnNetwork({
    allowedHosts: cfg.allowedHosts ?? [],
    onDenied: (host) => {
      if (turnedAway.has(host)) return;
      turnedAway.add(host);
      opts.log(
        `MCP server "${name}": the sandbox blocked network access to ${host}. If the server needs it, add it to the server's "allowedHosts" (or to logbook.sandbox.allowedHosts).`,
      );
    },
  });
  let started;
  try {
    started = await box.launch({
      argv: [cfg.command, ...(cfg.args ?? [])],
      workspaces: opts.workspaces,
      readOnly: false,
      cwd: cfg.cwd ?? opts.cwd,
      pass: opts.pass,
      // The sandbox builds the environment from scratch (PATH, HOME, locale, the proxy); the
      // entry's own variables go on top, as they do outside.
      extraEnv: opts.env,
      // Away from the host's terminal: Ctrl+C in the CLI must not reach the server.
      newSession: true,
      // The server's own folder and program, which the user named, even in a home folder (empty
      // inside the sandbox but for toolchains); its secrets stay hidden.
      readable: [
        ...(cfg.cwd ? [resolve(opts.cwd, cfg.cwd)] : []),
        ...(cfg.command.includes('/') ? [installFolder(resolve(cfg.cwd ?? opts.cwd, cfg.command))] : []),
      ],
    });
  } catch (err) {
    await box.dispose();
    throw err;
  }
  if (!started.sandboxed) {
    await box.dispose();
    return {
      release: NOTHING_TO_RELEASE,
      unsandboxed: `MCP server "${name}" runs unsandboxed: ${whyUnsandboxed(box.state)}`,
    };
  }
  return {
    // bwrap clears the environment and sets the one built for the server: its own needs only PATH.
    launch: {
      command: started.file,
      args: started.args,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    },
    release: () => box.dispose(),
  };
}

function whyUnsandboxed(state: SandboxState): string {
  if (state.kind === 'off') return 'logbook.sandbox.mode is "off".';
  if (state.kind === 'unavailable') return `${state.problem} ${state.fix}`;
  return 'no sandbox started.';
}
