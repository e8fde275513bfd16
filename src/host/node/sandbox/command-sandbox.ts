// One conversation's sandbox: decides whether commands run inside one (the user's setting and
// what this machine can do), and turns a command line into the bubblewrap command that runs it,
// with the filtering proxy started on first use. The hosts (the CLI's shell, the integrated
// terminal, MCP servers) all start their processes through this.
import type { L10n } from '../../../core/text/l10n';
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { bwrapArguments, PROXY_SOCKET_INSIDE } from './bwrap-arguments';
import { hostAllowed, NetworkProxy } from './network-proxy';
import { BRIDGE_PORT, withBridge } from './network-bridge';
import type { SandboxProfile } from './sandbox-profile';
import { hiddenHomes, homeReadable, installFolder } from './home-readable';
import { heldNameTest, heldPlan } from './held-paths';
import { HeldFilesWatch, heldChangesText } from './held-files-watch';
import { acquirePlaceholder, goneFolders, isPlaceholder, releasePlaceholder } from './placeholders';
import { scanWorkspace } from './workspace-scan';
import { hiddenLinkNames } from './hidden-link-names';
import { findLinkedWorktree, linkedWorktreeGit } from './linked-worktree';
import { ObjectStoreWatch, objectChangesText } from './object-store-watch';
import { probeWithCache } from './probe-cache';
import {
  findExecutable,
  sandboxAvailability,
  type SandboxAvailability,
  type SandboxSetting,
} from './sandbox-probe';
import { sandboxEnvironment } from './sandbox-environment';
import { secretLocations } from './secret-locations';
import { type SandboxReport, sandboxReport } from './sandbox-report';
import type { SandboxState } from './sandbox-state';
import { hostIds, outerIds } from './unix-socket-filter';

export type { SandboxState } from './sandbox-state';

export interface CommandSandboxOptions {
  setting: SandboxSetting;
  /** Hosts commands may reach (`logbook.sandbox.allowedHosts`); read at each connection. */
  allowedHosts: () => readonly string[];
  /**
   * A delegated agent's own list (its grant's hosts): a host reaches through unasked only when both
   * lists let it; absent: the user's list alone.
   */
  narrowHosts?: readonly string[];
  /** Asked for a host not on the list (VS Code asks the user); absent: turned away. */
  askHost?: (host: string) => Promise<boolean>;
  /** Told of each host turned away, as it happens (besides `takeDeniedHosts`). */
  onDenied?: (host: string) => void;
  /**
   * `logbook.sandbox.allowUnixSockets`: no Unix socket filter, so tools that listen on a socket of
   * their own work, and a command can also reach any listening socket it can see.
   */
  allowUnixSockets?: boolean;
  /** The user's additions to the unreadable list. */
  denyRead?: readonly string[];
  /** The user's additions to what commands may read in the home folder (`logbook.sandbox.homeReadable`). */
  homeReadable?: readonly string[];
  /** Folders besides the workspace that commands may write (`logbook.sandbox.writable`). */
  writable?: readonly string[];
  /** Logbook's own secret places outside the default list (a signing key set by variable, say). */
  ownSecrets?: readonly string[];
  /** The host's environment the few base variables are taken from (default process.env). */
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** The bwrap to use (default: from PATH). */
  bwrap?: string;
  /**
   * A file keeping the probe's verdict between processes (probe-cache.ts): a full sandbox found
   * there under the same binaries, kernel and settings is not probed again. Absent: probed.
   */
  probeCache?: string;
  /** Probe even when `probeCache` holds a verdict, and keep the new one there (a diagnosis). */
  probeFresh?: boolean;
  /** The Node (or Electron) binary that runs the network bridge inside (default process.execPath). */
  node?: string;
  /** socat for the bridge (default: from PATH); null: use Node even where socat is installed. */
  socat?: string | null;
}

export interface SandboxedLaunch {
  /** Whether the command runs in a sandbox (false: unsandboxed, as `auto` allows when none can start). */
  sandboxed: boolean;
  file: string;
  args: string[];
  /** Only for an unsandboxed launch: the caller's environment applies. */
  env?: Record<string, string>;
}

export interface LaunchRequest {
  argv: readonly string[];
  workspaces: readonly string[];
  /** Plan mode: the workspace is read-only too. */
  readOnly: boolean;
  cwd: string;
  /** Variables the user chose to pass (taken from the host's environment). */
  pass?: readonly string[];
  /** Set on top of the built environment. */
  extraEnv?: Readonly<Record<string, string>>;
  /** See bwrap-arguments.ts. */
  newSession: boolean;
  /** A descriptor of the spawned process that receives bwrap's JSON with the inner process id. */
  infoFd?: number;
  /** Read-only for this launch even in a home folder: what the user named to run (an MCP server's folder). */
  readable?: readonly string[];
}

/** `logbook.sandbox.mode` is `required` and no sandbox can start: nothing runs. */
export class SandboxRequiredError extends Error {
  override name = 'SandboxRequiredError';
}

export class CommandSandbox {
  private proxy?: Promise<NetworkProxy>;
  private readonly denied = new Set<string>();
  /** Placeholders this sandbox's launches hold (see placeholders.ts), released on dispose. */
  private readonly placeholders: string[] = [];
  /** The held files of the last writable launch, checked around each command. */
  private watch?: HeldFilesWatch;
  /** Files with other hard links that the last launch holds read-only. */
  private linked = new Set<string>();
  /** New hard links the last `beforeCommand` found, for the command's output. */
  private linkNote: string[] = [];
  /** Hard links to hidden files the last launch covers (hidden-link-names.ts), for the command's output. */
  private coveredNote = '';
  /** Held folders of the last writable launch; another process may remove its placeholder among them. */
  private heldFolders: string[] = [];
  /** Placeholders removed since the last launch, found by `beforeCommand`, for the command's output. */
  private lostNote: string[] = [];
  /** A linked worktree's shared object stores, checked around each command (object-store-watch.ts). */
  private objectWatches: ObjectStoreWatch[] = [];
  /** The hosts of the agent running the conversation now (a handoff's grant); null: not narrowed. */
  private handoffHosts: readonly string[] | null = null;

  constructor(private readonly opts: CommandSandboxOptions) {}

  /** The same sandbox without the folders the settings make writable: only the workspaces are (a replay's copy). */
  onlyWorkspacesWritable(): CommandSandbox {
    return new CommandSandbox({ ...this.opts, writable: [] });
  }

  get state(): SandboxState {
    if (this.opts.setting === 'off') return { kind: 'off' };
    const cache = this.opts.probeCache;
    const found: SandboxAvailability = sandboxAvailability(
      this.opts.bwrap,
      cache
        ? (bwrap) => probeWithCache(cache, bwrap, undefined, undefined, this.opts.probeFresh === true)
        : undefined,
    );
    if (found.available)
      return {
        kind: 'on',
        bwrap: found.bwrap,
        version: found.version,
        ...(found.socketFilterMissing ? { socketFilterMissing: found.socketFilterMissing } : {}),
        ...(this.opts.allowUnixSockets ? { socketsAllowed: true as const } : {}),
      };
    return {
      kind: 'unavailable',
      required: this.opts.setting === 'required',
      problem: found.problem,
      fix: found.fix,
      say: found.say,
    };
  }

  /**
   * Folders besides the workspace that commands may write (`logbook.sandbox.writable`): the file
   * tools write there too, and nowhere else, whether or not a sandbox runs.
   */
  get writableFolders(): readonly string[] {
    return this.opts.writable ?? [];
  }

  /** Whether commands are contained: the confirmation policy relaxes only then. */
  get active(): boolean {
    return this.state.kind === 'on';
  }

  /** Hosts turned away since the last call (each once), for the command's observation. */
  takeDeniedHosts(): string[] {
    const hosts = [...this.denied];
    this.denied.clear();
    return hosts;
  }

  /** Every location the sandbox hides (see secret-locations.ts). */
  hiddenLocations(): string[] {
    const env = this.hostEnv;
    return secretLocations({
      home: this.home,
      ...(env['XDG_CONFIG_HOME'] ? { configHome: env['XDG_CONFIG_HOME'] } : {}),
      ...(env['XDG_STATE_HOME'] ? { stateHome: env['XDG_STATE_HOME'] } : {}),
      ...(env['XDG_CACHE_HOME'] ? { cacheHome: env['XDG_CACHE_HOME'] } : {}),
      extra: this.opts.denyRead ?? [],
      own: this.opts.ownSecrets ?? [],
    });
  }

  /** The folders that are empty inside: every user's home. */
  hiddenHomes(): string[] {
    return hiddenHomes(this.home);
  }

  /** What commands may read in the home folders (the allowlist and the user's additions). */
  homeReadable(): string[] {
    return homeReadable(this.home, this.opts.homeReadable ?? []);
  }

  /** What the sandbox runs inside that may live in a home folder: the bridge's Node, the nested bwrap. */
  private runtimeReadable(bwrap: string): string[] {
    const found: string[] = [];
    for (const program of [this.opts.node ?? process.execPath, bwrap]) {
      found.push(installFolder(program));
      try {
        found.push(installFolder(realpathSync(program)));
      } catch {
        // a program that is not there fails to start, saying so
      }
    }
    return found;
  }

  private get hostEnv(): Readonly<Record<string, string | undefined>> {
    return this.opts.hostEnv ?? process.env;
  }

  private get home(): string {
    return this.hostEnv['HOME'] || homedir();
  }

  /**
   * Before each command: takes the state of the held files no mount can hold, and looks for files
   * that got other hard links since the shell started. True: the host starts a new shell first
   * (its mounts hold them read-only).
   */
  beforeCommand(): boolean {
    for (const w of this.objectWatches) w.snapshot();
    if (!this.watch) return false;
    const fresh = this.watch.snapshot().linked.filter((p) => !this.linked.has(p));
    if (fresh.length) this.linkNote = fresh;
    // A held folder removed on the host takes the shell's mount on it away: a new shell holds it again.
    const lost = this.lostHeldFolders();
    if (lost.length) this.lostNote = lost;
    return fresh.length > 0 || lost.length > 0;
  }

  /** Held folders of the last writable launch that are gone from the host (their parent is not). */
  lostHeldFolders(): string[] {
    return goneFolders([...this.heldFolders, ...this.placeholders]);
  }

  /** After each command: undoes what it wrote to held files no mount holds; the text ends its output. */
  afterCommand(): string {
    const notes = [
      heldChangesText(this.watch?.check() ?? []),
      ...this.objectWatches.map((w) => objectChangesText(w.folder, w.check())),
    ];
    if (this.linkNote.length)
      notes.push(
        `[Files in the workspace got other hard links: ${this.linkNote.join(', ')}. A write through ` +
          'one would change a file elsewhere, so Logbook started a new shell that holds them read-only.]',
      );
    if (this.lostNote.length)
      notes.push(
        `[Folders Logbook holds read-only were removed: ${this.lostNote.join(', ')}. Logbook started ` +
          'a new shell that holds them again.]',
      );
    if (this.coveredNote) notes.push(this.coveredNote);
    this.linkNote = [];
    this.lostNote = [];
    this.coveredNote = '';
    return notes.filter(Boolean).join('\n');
  }

  /** What the diagnostics list for these workspaces, in the host's words. */
  report(workspaces: readonly string[], l10n?: L10n): SandboxReport {
    return sandboxReport(
      {
        state: this.state,
        workspaces,
        writable: this.opts.writable ?? [],
        hidden: this.hiddenLocations(),
        hiddenHomes: this.hiddenHomes(),
        homeReadable: this.homeReadable(),
        allowedHosts: this.opts.allowedHosts(),
      },
      l10n,
    );
  }

  async launch(req: LaunchRequest): Promise<SandboxedLaunch> {
    const state = this.state;
    if (state.kind !== 'on') {
      if (state.kind === 'unavailable' && state.required)
        throw new SandboxRequiredError(
          `logbook.sandbox.mode is "required" and no sandbox can start: ${state.problem} ${state.fix}`,
        );
      return { sandboxed: false, file: req.argv[0]!, args: req.argv.slice(1) };
    }
    const proxy = await this.startProxy();
    // Plan mode: the whole workspace is read-only, nothing to hold or watch.
    if (req.readOnly) this.watch = undefined;
    const held = req.readOnly ? { held: [], selfBound: [] } : this.holdWorkspaces(req.workspaces);
    const linked = linkedGitOf(req.workspaces, req.readOnly);
    this.objectWatches = (linked.linkedGit?.writable ?? [])
      .filter((dir) => basename(dir) === 'objects')
      .map((dir) => {
        const w = new ObjectStoreWatch(dir);
        w.snapshot();
        return w;
      });
    // Every launch's command gets the Unix socket filter where this machine can apply it.
    const filtered = !state.socketFilterMissing && !state.socketsAllowed;
    const ids = hostIds();
    const hidden = this.hiddenLocations();
    // A writable launch's walk found the workspaces' files with other links (holdWorkspaces).
    const known = req.readOnly ? undefined : this.linked;
    const folders = { workspaces: req.workspaces, writable: this.opts.writable ?? [] };
    const covered = hiddenLinkNames(known, folders, hidden);
    this.coveredNote = covered.note;
    const profile: SandboxProfile = {
      workspaces: req.workspaces,
      readOnlyWorkspace: req.readOnly,
      writable: this.opts.writable ?? [],
      heldInWorkspace: held.held,
      selfBound: held.selfBound,
      ...linked,
      hiddenHomes: this.hiddenHomes(),
      homeReadable: [...this.homeReadable(), ...this.runtimeReadable(state.bwrap), ...(req.readable ?? [])],
      // A hard link's other name is hidden like the file (an empty file in its place).
      hidden: [...hidden, ...covered.names],
      env: sandboxEnvironment(this.hostEnv, {
        pass: req.pass ?? [],
        ...(req.extraEnv ? { extra: req.extraEnv } : {}),
        proxyUrl: `http://127.0.0.1:${BRIDGE_PORT}`,
      }),
      cwd: req.cwd,
      proxySocket: proxy.socketPath,
      ...(filtered ? { socketFilter: { outerIds: outerIds(ids) } } : {}),
    };
    const args = bwrapArguments(profile, {
      kind: pathKind,
      newSession: req.newSession,
      ...(req.infoFd !== undefined ? { infoFd: req.infoFd } : {}),
    });
    const socatPath = this.opts.socat === undefined ? socat() : (this.opts.socat ?? undefined);
    const inner = withBridge(
      { node: this.opts.node ?? process.execPath, ...(socatPath ? { socat: socatPath } : {}) },
      PROXY_SOCKET_INSIDE,
      req.argv,
      filtered ? { bwrap: state.bwrap, ids } : undefined,
    );
    return { sandboxed: true, file: state.bwrap, args: [...args, '--', ...inner] };
  }

  /**
   * A sandbox with the same setting and mounts but a network of its own: its own proxy, which also
   * lets `allowedHosts` through and tells `onDenied` (not the user) what it turns away. For a
   * long-running process (an MCP server): its hosts neither widen the commands' list nor show up
   * in their output. The caller disposes it.
   */
  withOwnNetwork(own: {
    allowedHosts?: readonly string[];
    onDenied?: (host: string) => void;
  }): CommandSandbox {
    const { askHost: _notAsked, onDenied: _notTold, ...same } = this.opts;
    const extra = own.allowedHosts ?? [];
    return new CommandSandbox({
      ...same,
      allowedHosts: () => [...this.opts.allowedHosts(), ...extra],
      ...(own.onDenied ? { onDenied: own.onDenied } : {}),
    });
  }

  /**
   * A sandbox with the same setting and mounts whose network lets through unasked only the hosts
   * both the user's list and `hosts` allow (a delegated agent's grant): its own proxy, so the
   * parent's commands keep theirs. The caller disposes it.
   */
  withHostsWithin(hosts: readonly string[]): CommandSandbox {
    // `hosts` lie within the grant of the agent that delegated, so they replace an earlier narrowing.
    return new CommandSandbox({ ...this.opts, narrowHosts: [...hosts] });
  }

  /**
   * What a writable launch holds read-only in the workspaces: the files that run later (made empty
   * first where a held folder is missing) and files with other hard links; and it starts watching
   * the held files no mount can hold.
   */
  private holdWorkspaces(workspaces: readonly string[]): { held: string[]; selfBound: string[] } {
    const held: string[] = [];
    const selfBound: string[] = [];
    const named = heldNameTest();
    this.linked = new Set();
    const watch = new HeldFilesWatch(workspaces);
    for (const ws of workspaces) {
      if (pathKind(ws) !== 'dir') continue;
      const folderTimes = new Map<string, number>();
      const scan = scanWorkspace(ws, { named, links: 'all', folderTimes });
      watch.startFrom(ws, folderTimes);
      const plan = heldPlan(ws, scan);
      for (const p of plan.held) {
        // Made by this process for another sandbox: held here too, so it stays while either runs.
        if (isPlaceholder(p) && acquirePlaceholder(p)) this.placeholders.push(p);
        held.push(p);
      }
      for (const p of plan.missingFolders) {
        if (!acquirePlaceholder(p)) continue;
        this.placeholders.push(p);
        held.push(p);
      }
      for (const rel of scan.linked) {
        const p = join(ws, ...rel.split('/'));
        this.linked.add(p);
        held.push(p);
      }
      selfBound.push(...plan.selfBound);
    }
    this.watch = watch;
    watch.snapshot();
    this.heldFolders = held.filter((p) => pathKind(p) === 'dir');
    return { held, selfBound };
  }

  async dispose(): Promise<void> {
    for (const p of this.placeholders.splice(0)) releasePlaceholder(p);
    this.watch = undefined;
    const proxy = this.proxy;
    this.proxy = undefined;
    await (await proxy?.catch(() => undefined))?.close();
  }

  /**
   * Narrows this sandbox's network, from its next connection, to the hosts the agent that took the
   * conversation over was granted (within the user's list, as a child's); null: back to the list.
   */
  narrowHostsTo(hosts: readonly string[] | null): void {
    this.handoffHosts = hosts === null ? null : [...hosts];
  }

  private allowsUnasked(host: string): boolean {
    const within = (list: readonly string[] | null | undefined) => !list || hostAllowed(host, list);
    return (
      hostAllowed(host, this.opts.allowedHosts()) &&
      within(this.opts.narrowHosts) &&
      within(this.handoffHosts)
    );
  }

  private startProxy(): Promise<NetworkProxy> {
    this.proxy ??= NetworkProxy.start({
      allow: async (host) => this.allowsUnasked(host) || ((await this.opts.askHost?.(host)) ?? false),
      onDenied: (host) => {
        this.denied.add(host);
        this.opts.onDenied?.(host);
      },
    });
    return this.proxy;
  }
}

/**
 * The shared git folder's mounts for workspaces that are linked worktrees (linked-worktree.ts): in
 * plan mode only shown read-only, since nothing is written.
 */
function linkedGitOf(workspaces: readonly string[], readOnly: boolean): Pick<SandboxProfile, 'linkedGit'> {
  const writable: string[] = [];
  const held: string[] = [];
  const readable: string[] = [];
  for (const ws of workspaces) {
    if (readOnly) {
      const found = findLinkedWorktree(ws);
      if (found) readable.push(found.common);
      continue;
    }
    const git = linkedWorktreeGit(ws);
    if (!git) continue;
    writable.push(...git.writable);
    held.push(...git.held);
    readable.push(...git.readable);
  }
  return readable.length ? { linkedGit: { writable, held, readable } } : {};
}

let socatPath: string | null | undefined;

/** socat on this machine, looked up once. */
function socat(): string | undefined {
  if (socatPath === undefined) socatPath = findExecutable('socat') ?? null;
  return socatPath ?? undefined;
}

function pathKind(p: string): 'dir' | 'file' | undefined {
  try {
    const st = statSync(p);
    return st.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}
