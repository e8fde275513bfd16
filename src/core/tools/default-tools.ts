// The tool set a conversation starts with. Each call makes fresh instances, because some tools
// keep per-conversation memory (file_editor's undo history, terminal's last working directory).
import type { z } from 'zod';
import type { PayloadSchemas } from '../events';
import type { ToolSpec } from './tool';
import { createTerminalTool, type TerminalToolOptions } from './terminal-tool';
import { createFileEditorTool, type FileEditorToolOptions } from './file-editor-tool';
import { createTaskTrackerTool, type TaskTrackerToolOptions } from './task-tracker-tool';
import { createFinishTool } from './finish-tool';
import { createThinkTool } from './think-tool';
import { createGlobTool, type SearchToolOptions } from './glob-tool';
import { createGrepTool } from './grep-tool';
import { createFetchTool } from './fetch-tool';
import { createWebSearchTool } from './web-search-tool';
import type { WebPort, WebSearchPort } from './ports';

export interface DefaultToolsOptions {
  terminal?: TerminalToolOptions;
  fileEditor?: FileEditorToolOptions;
  taskTracker?: TaskTrackerToolOptions;
  search?: SearchToolOptions;
  /** The web behind the address rules: offers `fetch` (none: no fetch tool). */
  web?: WebPort;
  /** A search service the user configured: offers `web_search`. */
  webSearch?: WebSearchPort;
}

export function defaultTools(options: DefaultToolsOptions = {}): ToolSpec[] {
  const tools = [
    createTerminalTool(options.terminal),
    createFileEditorTool(options.fileEditor),
    createTaskTrackerTool(options.taskTracker),
    createGlobTool(options.search),
    createGrepTool(options.search),
    ...(options.web ? [createFetchTool({ web: options.web })] : []),
    ...(options.webSearch ? [createWebSearchTool(options.webSearch)] : []),
    createThinkTool(),
    createFinishTool(),
  ] as ToolSpec[];
  return tools;
}

/** The payload schemas of these tools, as the value a conversation's events are checked with. */
export function payloadSchemasOf(tools: readonly ToolSpec[]): PayloadSchemas {
  const actions = new Map<string, z.ZodType>();
  const observations = new Map<string, z.ZodType>();
  for (const tool of tools) {
    if (tool.actionPayloadSchema) actions.set(tool.actionKind, tool.actionPayloadSchema);
    if (tool.observationKind && tool.observationPayloadSchema) {
      observations.set(tool.observationKind, tool.observationPayloadSchema);
    }
  }
  return { actions, observations };
}

/**
 * The payload schemas of every built-in tool (fetch too), for reading a log before (or without)
 * its conversation's own tool list: a kind no built-in tool makes stays open, and a kind is made by
 * one tool only, so this is never stricter than the conversation's own set on what it recorded.
 */
export function payloadSchemasOfBuiltIns(): PayloadSchemas {
  return payloadSchemasOf(defaultTools({ web: NO_WEB }));
}

/** Every built-in tool (fetch and web_search too), for what is read of their specs, never run. */
export function everyBuiltInTool(): ToolSpec[] {
  return defaultTools({ web: NO_WEB, webSearch: NO_SEARCH });
}

/** Only the tool's schemas are read: a port for a tool that is never run. */
const NO_WEB: WebPort = {
  check: (url) => Promise.resolve({ ok: false, url, reason: 'not for use' }),
  read: () => Promise.reject(new Error('not for use')),
  isAllowedHost: () => false,
};

const NO_SEARCH: WebSearchPort = {
  name: 'none',
  search: () => Promise.reject(new Error('not for use')),
};
