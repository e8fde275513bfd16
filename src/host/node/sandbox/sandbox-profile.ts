// What one sandbox allows: the description the hosts fill in and `bwrapArguments` turns into mounts.
// Paths inside and outside are the same (every mount is at its own path), so a working directory
// or an error message means the same thing on both sides.

export interface SandboxProfile {
  /** Workspace folders: writable, or read-only when `readOnlyWorkspace` (plan mode). */
  workspaces: readonly string[];
  readOnlyWorkspace: boolean;
  /** Other folders the user made writable (`logbook.sandbox.writable`): caches, say. */
  writable: readonly string[];
  /**
   * Absolute paths inside writable workspaces that stay read-only: what runs later outside the
   * sandbox (core/security/runs-later.ts, found by held-paths.ts) and files with other hard links.
   */
  heldInWorkspace: readonly string[];
  /** Folders inside writable workspaces bound writable onto themselves (`.git`): mount points cannot be renamed away. */
  selfBound: readonly string[];
  /**
   * A workspace that is a linked git worktree: the shared git folder's parts a commit there writes
   * (bound writable), the paths inside them that stay read-only, and the shared folder shown
   * read-only (see linked-worktree.ts). Ignored when `readOnlyWorkspace`.
   */
  linkedGit?: { writable: readonly string[]; held: readonly string[]; readable: readonly string[] };
  /** Folders that are empty and read-only inside: every user's home (see home-readable.ts). */
  hiddenHomes: readonly string[];
  /** Read-only inside a hidden home: the toolchains of the allowlist, and what the sandbox runs. */
  homeReadable: readonly string[];
  /** Files and folders that must not be readable (see secret-locations.ts), wherever they are. */
  hidden: readonly string[];
  /** The whole environment of the sandboxed process: built from scratch, nothing inherited. */
  env: Readonly<Record<string, string>>;
  /** Where the process starts. */
  cwd: string;
  /**
   * A Unix socket of the host's filtering proxy, mounted into the sandbox so that commands reach
   * allowed hosts through it; absent: no network at all.
   */
  proxySocket?: string;
  /**
   * The command runs under the nested bwrap of unix-socket-filter.ts: it is the sandbox's process 1,
   * and the sandbox maps the host user to `outerIds` (nonzero where the host user is root).
   */
  socketFilter?: { outerIds: { uid: number; gid: number } };
}
