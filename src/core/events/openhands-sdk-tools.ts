/**
 * Tool definitions in the OpenHands SDK's form. Logbook records the definitions it sends the model
 * (Chat Completions `{type: 'function', function: {name, description, parameters}}`); the SDK
 * persists a list of ToolDefinitions, each tagged with its `kind` (TerminalTool, FileEditorTool,
 * FinishTool, MCPToolDefinition...) and naming its action and observation types. The SDK derives a
 * built-in tool's parameters from its action type; the exact schema the model saw (with Logbook's
 * security_risk/summary) is kept in `meta`, which the SDK allows for any tool.
 */

type Json = Record<string, unknown>;

interface BuiltIn {
  kind: string;
  action: string;
  observation: string;
  /** MCP-style hints, as the SDK writes them for its own tools. */
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

const hints = (readOnly: boolean, destructive: boolean, idempotent: boolean, openWorld: boolean) => ({
  readOnly,
  destructive,
  idempotent,
  openWorld,
});

/** Logbook's built-in tools by the name the model calls, with the SDK tool each one is. */
const BUILT_IN: Readonly<Record<string, BuiltIn>> = {
  terminal: {
    kind: 'TerminalTool',
    action: 'TerminalAction',
    observation: 'TerminalObservation',
    ...hints(false, true, false, true),
  },
  file_editor: {
    kind: 'FileEditorTool',
    action: 'FileEditorAction',
    observation: 'FileEditorObservation',
    ...hints(false, true, false, false),
  },
  task_tracker: {
    kind: 'TaskTrackerTool',
    action: 'TaskTrackerAction',
    observation: 'TaskTrackerObservation',
    ...hints(false, false, true, false),
  },
  glob: {
    kind: 'GlobTool',
    action: 'GlobAction',
    observation: 'GlobObservation',
    ...hints(true, false, true, false),
  },
  grep: {
    kind: 'GrepTool',
    action: 'GrepAction',
    observation: 'GrepObservation',
    ...hints(true, false, true, false),
  },
  think: {
    kind: 'ThinkTool',
    action: 'ThinkAction',
    observation: 'ThinkObservation',
    ...hints(true, false, true, false),
  },
  finish: {
    kind: 'FinishTool',
    action: 'FinishAction',
    observation: 'FinishObservation',
    ...hints(true, false, true, false),
  },
};

/** The SDK's registered tool name (`Tool(name=...)` in an agent's `tools`) of a built-in tool, or undefined. */
export function sdkToolSpecName(toolName: string): string | undefined {
  return BUILT_IN[toolName]?.kind;
}

/** Built-ins the SDK adds to every agent by itself (`include_default_tools`), not listed in `tools`. */
export const SDK_DEFAULT_TOOLS: ReadonlySet<string> = new Set(['FinishTool', 'ThinkTool']);

/**
 * One tool definition in the SDK's form. A definition that already has a `kind` (an SDK-written
 * conversation, imported) is the SDK's own and stays as it is; a tool that is not built in (an MCP
 * server's, the editor's) becomes an MCPToolDefinition carrying its schema as the MCP tool's.
 */
export function sdkToolDefinition(tool: Readonly<Json>): Json {
  if (typeof tool.kind === 'string') return tool as Json;
  const fn = (tool.function ?? tool) as { name?: unknown; description?: unknown; parameters?: unknown };
  const name = typeof fn.name === 'string' ? fn.name : 'tool';
  const description = typeof fn.description === 'string' ? fn.description : '';
  const parameters = isObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} };
  const builtIn = BUILT_IN[name];
  if (builtIn) {
    return {
      description,
      action_type: builtIn.action,
      observation_type: builtIn.observation,
      annotations: {
        title: name,
        readOnlyHint: builtIn.readOnly,
        destructiveHint: builtIn.destructive,
        idempotentHint: builtIn.idempotent,
        openWorldHint: builtIn.openWorld,
      },
      meta: { logbook_parameters: parameters },
      kind: builtIn.kind,
      title: name,
    };
  }
  return {
    description,
    action_type: 'MCPToolAction',
    observation_type: 'MCPToolObservation',
    annotations: null,
    meta: null,
    kind: 'MCPToolDefinition',
    mcp_tool: { name, description, inputSchema: parameters },
    title: name,
  };
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
