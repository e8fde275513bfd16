// The agent's built-in tool set, made here for both hosts from the settings that shape it: the
// terminal's default wait, the web rules `fetch` runs under and the search service `web_search`
// asks. A host adds only tools of its own around it (the CLI's agents, the editor's tools).
import {
  defaultTools,
  FETCH_TOOL_NAME,
  FILE_EDITOR_TOOL_NAME,
  FINISH_TOOL_NAME,
  GLOB_TOOL_NAME,
  GREP_TOOL_NAME,
  TASK_TRACKER_TOOL_NAME,
  TERMINAL_TOOL_NAME,
  THINK_TOOL_NAME,
  type ToolSpec,
  WEB_SEARCH_TOOL_NAME,
  type WebSearchPort,
} from '../../../core/tools';
import { DELEGATE_TOOL_NAME } from '../../../core/agents/delegate-tool';
import { ESCALATE_TOOL_NAME } from '../../../core/agents/escalate-tool';
import { TRANSFER_TOOL_NAME } from '../../../core/agents/transfer-tool';
import type { HiddenPaths } from '../../../core/security/hidden-paths';
import type { Lookup, WebRules } from '../web/guarded-fetch';
import { NodeWebPort } from '../web/node-web-port';
import { SearxngSearch } from '../web/searxng';

export interface AgentToolOptions {
  /** Seconds a terminal call waits before returning what the command printed so far (tool default when absent). */
  terminalTimeoutSec?: number;
  /** Offers `fetch` under these rules (and `web_search` with a search service); none: no web tool. */
  web?: {
    /** Read at each fetch: a changed setting applies to the next one. */
    rules: () => WebRules;
    search?: WebSearchPort;
    /** Name resolution for fetches (tests give their own). */
    lookup?: Lookup;
  };
  /**
   * Where file_editor resolves relative paths, the folders besides the workspace it may write, and
   * what the sandbox hides, which the file tools (file_editor, glob, grep) neither read nor write.
   */
  files?: { cwd: string; writable: () => readonly string[]; hidden: HiddenPaths };
}

/** Fresh instances of the built-in tools (some keep per-conversation memory). */
export function agentTools(options: AgentToolOptions = {}): ToolSpec[] {
  const { web } = options;
  return defaultTools({
    ...(options.files
      ? {
          fileEditor: {
            cwd: options.files.cwd,
            writable: options.files.writable,
            hidden: options.files.hidden,
          },
          search: { cwd: options.files.cwd, hidden: options.files.hidden },
        }
      : {}),
    ...(options.terminalTimeoutSec !== undefined
      ? { terminal: { defaultTimeoutSec: options.terminalTimeoutSec } }
      : {}),
    ...(web
      ? {
          web: new NodeWebPort({ rules: web.rules, ...(web.lookup ? { lookup: web.lookup } : {}) }),
          ...(web.search ? { webSearch: web.search } : {}),
        }
      : {}),
  });
}

/**
 * Every name a built-in tool may have, whatever the settings and whichever agent holds it (the
 * agents' own tools included: a delegated agent gets `escalate` beside the MCP tools it names):
 * names outside tools must not take. Named, not read from the tools: activation asks, and building
 * the tools builds their schemas (a test checks that every default tool is named here).
 */
export function builtInToolNames(): string[] {
  return [
    TERMINAL_TOOL_NAME,
    FILE_EDITOR_TOOL_NAME,
    TASK_TRACKER_TOOL_NAME,
    GLOB_TOOL_NAME,
    GREP_TOOL_NAME,
    THINK_TOOL_NAME,
    FINISH_TOOL_NAME,
    FETCH_TOOL_NAME,
    WEB_SEARCH_TOOL_NAME,
    DELEGATE_TOOL_NAME,
    ESCALATE_TOOL_NAME,
    TRANSFER_TOOL_NAME,
  ];
}

/**
 * The search service `web.searxngUrl` names; none when it is empty, or not a usable URL (then
 * `warn` says why: the agent goes on without `web_search`).
 */
export function webSearchFrom(url: string, warn?: (message: string) => void): WebSearchPort | undefined {
  const trimmed = url.trim();
  if (trimmed === '') return undefined;
  try {
    return new SearxngSearch(trimmed);
  } catch (err) {
    warn?.(`No web_search tool: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
