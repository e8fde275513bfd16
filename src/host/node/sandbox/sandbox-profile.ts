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
   * Paths inside the workspaces that stay read-only even when the workspace is writable: what
   * programs outside the sandbox later trust (`.git/config`, `.git/hooks`, `.vscode`, Logbook's own).
   */
  protectedInWorkspace: readonly string[];
  /** Files and folders that must not be readable (see secret-locations.ts). */
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
}

/** Names, relative to a workspace folder, kept read-only inside a writable workspace. */
export const PROTECTED_WORKSPACE_PATHS = ['.git/config', '.git/hooks', '.git/info', '.vscode', '.logbook'];
