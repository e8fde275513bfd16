/** Public API of the tools. Import from `src/core/tools`, not from the files inside. */
export type {
  FilePort,
  ScratchPort,
  SearchPort,
  TerminalPort,
  TerminalRunOptions,
  TerminalRunResult,
  ToolPorts,
  WebDocument,
  WebPort,
  WebSearchPort,
  WebSearchResult,
  WebTarget,
  WriteExpectation,
} from './ports';
export { PathMovedError } from './ports';
export type { ToolContext, ToolDefinitionFor, ToolObservation, ToolSpec } from './tool';
export { parametersOf, toolDefinition } from './tool-definition';
export {
  type InvalidToolCall,
  type ToolCallValidation,
  type ValidToolCall,
  validateToolCall,
} from './validate-tool-call';
export { normaliseSecurityRisk, securityArgsShape, SECURITY_ARG_NAMES } from './security-args';
export {
  payloadSchemasOfBuiltIns,
  defaultTools,
  type DefaultToolsOptions,
  payloadSchemasOf,
} from './default-tools';
export {
  createTerminalTool,
  TERMINAL_TOOL_NAME,
  type TerminalArgs,
  type TerminalToolOptions,
} from './terminal-tool';
export {
  createFileEditorTool,
  FILE_EDITOR_TOOL_NAME,
  type FileEditorArgs,
  type FileEditorToolOptions,
} from './file-editor-tool';
export {
  createTaskTrackerTool,
  formatTasks,
  TASK_TRACKER_TOOL_NAME,
  type TaskItem,
  TaskItemSchema,
  type TaskTrackerArgs,
  type TaskTrackerToolOptions,
} from './task-tracker-tool';
export { createFinishTool, FINISH_TOOL_NAME, type FinishArgs } from './finish-tool';
export { createThinkTool, THINK_TOOL_NAME, type ThinkArgs } from './think-tool';
export { createGlobTool, GLOB_TOOL_NAME, type GlobArgs, type SearchToolOptions } from './glob-tool';
export { createGrepTool, GREP_TOOL_NAME, type GrepArgs } from './grep-tool';
export { capMiddle, DEFAULT_MAX_OUTPUT_CHARS } from './output-cap';
export { stripTerminalControls } from './terminal-text';
export { type ShellCwd, trackShellCwd } from './shell-cwd';
export {
  createFetchTool,
  FETCH_TOOL_NAME,
  fetchRisk,
  type FetchArgs,
  type FetchToolOptions,
} from './fetch-tool';
export { createWebSearchTool, WEB_SEARCH_TOOL_NAME, type WebSearchArgs } from './web-search-tool';
export { UNTRUSTED_TAG, wrapUntrusted } from './untrusted-text';
