// Ports: the only ways a tool touches the world. Hosts implement them (src/host/vscode with
// WorkspaceEdit and integrated terminals, src/host/node with fs and child processes), so tool
// logic in src/core is the same everywhere and testable without VS Code.

/** Files of the workspace. Paths are absolute. */
export interface FilePort {
  /** Absolute workspace folder paths. A path under none of them is "outside the workspace". */
  readonly roots: readonly string[];
  /** Current text (an open, possibly unsaved, editor buffer wins over the disk); undefined if missing. */
  readText(path: string): Promise<string | undefined>;
  /**
   * Replaces the whole text (creating the file and parent folders if needed), undoably where the
   * host can. `expect.real`: where the path must still lead (symlinks followed) right before the
   * write; if it leads elsewhere by then, nothing is written and it throws PathMovedError.
   */
  writeText(path: string, text: string, expect?: WriteExpectation): Promise<void>;
  /** Deletes a file the agent created (used to restore a rejected creation); `expect` as for writeText. */
  delete(path: string, expect?: WriteExpectation): Promise<void>;
  stat(path: string): Promise<{ type: 'file' | 'directory'; size: number } | undefined>;
  /** Entries of a directory, names only, directories with a trailing '/'. */
  list(path: string): Promise<string[]>;
}

/** What a write checks right before it happens. */
export interface WriteExpectation {
  /** Where the path must lead, every symlink followed. */
  real: string;
}

/** A path that led elsewhere at the moment of writing than when the write was decided. */
export class PathMovedError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly now: string,
  ) {
    super(`${path} now leads to ${now}, not to ${expected}: nothing was written`);
    this.name = 'PathMovedError';
  }
}

/** The result of running, or continuing to read, a command in the agent's terminal. */
export interface TerminalRunResult {
  /** Output captured for this call (escape sequences stripped). */
  output: string;
  /** The exit code, or null while the command is still running (the tool reports -1). */
  exitCode: number | null;
  /** The call returned because its timeout elapsed, not because the command ended. */
  timedOut: boolean;
  /** Working directory after the command, when the host knows it. */
  cwd?: string;
  /**
   * Exported variables the command set, changed or removed (names only), when the host runs each
   * command in a fresh shell and carries only the folder and these to the next command.
   */
  carried?: string[];
}

export interface TerminalRunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** One persistent shell per conversation: `cd` and exported variables carry over between commands. */
export interface TerminalPort {
  /** Runs a command; resolves when it exits or the timeout elapses (it then keeps running). */
  run(command: string, opts: TerminalRunOptions): Promise<TerminalRunResult>;
  /** Sends text to the running command (empty text only collects output produced since the last call). */
  sendInput(text: string, opts: TerminalRunOptions): Promise<TerminalRunResult>;
  /** Sends Ctrl+C to the running command. */
  interrupt(): Promise<void>;
  /** Kills the shell and starts a fresh one. */
  reset(): Promise<void>;
  /**
   * True while a command started by `run` has not exited. A host may keep it true until the end of
   * the command has been returned by `sendInput('')`, so output printed after a timeout is not lost.
   */
  readonly busy: boolean;
  dispose(): void;
}

/** Read-only search over the workspace. */
export interface SearchPort {
  glob(pattern: string, opts: { cwd: string; limit: number }): Promise<string[]>;
  grep(
    pattern: string,
    opts: { cwd: string; include?: string; limit: number; ignoreCase?: boolean },
  ): Promise<{ path: string; line: number; text: string }[]>;
}

/** Where a tool may keep large outputs (e.g. a command's full output) for the agent to read later. */
export interface ScratchPort {
  /** Saves text and returns an absolute path the file_editor can `view`. */
  save(name: string, text: string): Promise<string>;
}

/** Where images a tool reads are kept once, so events refer to them instead of carrying their bytes. */
export interface ImagePort {
  /** Stores the image file at `path`; refuses what is not a PNG, JPEG, WebP or GIF, or too large. */
  putFile(
    path: string,
  ): Promise<{ ok: true; url: string; mime: string; bytes: number } | { ok: false; error: string }>;
  /** Stores image bytes (a fetched image), with the same checks. */
  put(
    bytes: Uint8Array,
  ): Promise<{ ok: true; url: string; mime: string; bytes: number } | { ok: false; error: string }>;
}

export interface ToolPorts {
  files: FilePort;
  terminal: TerminalPort;
  search: SearchPort;
  scratch: ScratchPort;
  /** Absent: file_editor views an image file as text would be refused (a binary file). */
  images?: ImagePort;
}

/** Where a URL leads, as the address rules judged it before anything was fetched. */
export type WebTarget =
  | {
      ok: true;
      /** The URL as it will be requested (normalised: what the user confirms). */
      url: string;
      /** The address the connection goes to ('' for an inline data: URL). */
      address: string;
      /** The host is on the user's list of trusted hosts (fetched without asking). */
      allowedHost: boolean;
    }
  | { ok: false; url: string; reason: string };

/** A page read through the address rules, turned into what the model can read. */
export type WebDocument = {
  /** The URL the body came from, after redirects. */
  url: string;
  /** The address connected to for that URL ('' for a data: URL). */
  address: string;
  /** Every URL before the final one. */
  redirects: string[];
  status: number;
  contentType: string;
  /** The body was longer than the size cap and was cut there. */
  cut: boolean;
} & (
  | { type: 'text'; title?: string; text: string }
  | { type: 'image'; bytes: Uint8Array }
  | { type: 'unreadable'; reason: string }
);

/** The web, behind the address rules (resolved before connecting, every redirect checked again). */
export interface WebPort {
  /** Resolves and checks a URL without fetching it; never throws (a refusal is `ok: false`). */
  check(url: string): Promise<WebTarget>;
  /**
   * GETs a URL and converts what came back: HTML to Markdown (`raw`: the HTML as it is), other
   * text as it is. Throws with a message the model can read when the rules refuse a hop or the
   * fetch fails. `address`: connect to this already checked (and confirmed) address first.
   */
  read(url: string, opts: { raw: boolean; address?: string; signal?: AbortSignal }): Promise<WebDocument>;
  /** Whether the user trusts the host of `url` (logbook.web.allowedHosts). */
  isAllowedHost(url: string): boolean;
}

/** One result of a web search. */
export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A search service the user configured (a SearXNG instance). */
export interface WebSearchPort {
  /** Who answers, in words for the user (e.g. "SearXNG at https://search.example"). */
  readonly name: string;
  search(query: string, opts: { limit: number; signal?: AbortSignal }): Promise<WebSearchResult[]>;
}
