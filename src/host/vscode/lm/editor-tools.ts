// Tools other extensions contribute to the editor's language-model tools API (`vscode.lm.tools`,
// run with `vscode.lm.invokeTool`), offered to the agent when `logbook.tools.includeEditorTools`
// is on. They are logged like MCP tools (MCPToolAction / MCPToolObservation) and rated MEDIUM:
// the API says nothing about what a tool does, so by default each call asks first. The API is
// newer than the VS Code version Logbook supports, so it is looked up at run time.
import * as vscode from 'vscode';
import type { ToolSource } from '../../../core/agent/ports';
import {
  argumentsSchema,
  assignToolNames,
  DEFAULT_RESULT_LIMITS,
  MCP_ACTION_KIND,
  MCP_OBSERVATION_KIND,
  McpActionPayloadSchema,
  McpObservationPayloadSchema,
  mcpError,
  observationFromResult,
} from '../../../core/mcp';
import type { ToolSpec } from '../../../core/tools';
import { editorSetting } from '../settings/config';

export const EDITOR_TOOLS_SETTING = 'tools.includeEditorTools';

/** What `vscode.lm` offers about tools (VS Code 1.95 and later). */
interface LmToolInfo {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object;
}
interface LmPart {
  value?: unknown;
  data?: Uint8Array;
  mimeType?: string;
}
interface LmApi {
  readonly tools?: readonly LmToolInfo[];
  invokeTool?(
    name: string,
    options: { input: object; toolInvocationToken: undefined },
    token?: vscode.CancellationToken,
  ): Thenable<{ content: readonly LmPart[] }>;
}

function lm(): LmApi | undefined {
  return (vscode as unknown as { lm?: LmApi }).lm;
}

/** Whether this editor has the tools API at all. */
export function editorToolsSupported(): boolean {
  const api = lm();
  return !!api && Array.isArray(api.tools) && typeof api.invokeTool === 'function';
}

/**
 * The editor's tools as a ToolSource. `taken` names the tools already offered (built-in and MCP):
 * an editor tool of the same name gets `editor_` in front.
 */
export function editorToolSource(taken: () => readonly string[], log: vscode.LogOutputChannel): ToolSource {
  let cache: { key: string; specs: ToolSpec[] } | undefined;
  const logged = new Set<string>();
  return {
    prepare: async () => undefined,
    takeNotices: () => [],
    tools: () => {
      const enabled = editorSetting<boolean>(EDITOR_TOOLS_SETTING);
      if (!enabled || !vscode.workspace.isTrusted || !editorToolsSupported()) return [];
      const infos = lm()!.tools!;
      const reserved = taken();
      const key = `${reserved.join(',')}|${infos.map((t) => t.name).join(',')}`;
      if (cache?.key === key) return cache.specs;
      const { assigned, notes } = assignToolNames(
        reserved,
        infos.map((tool) => ({ server: 'editor', tool })),
      );
      for (const n of notes.filter((n) => !logged.has(n))) {
        logged.add(n);
        log.info(n.replace('of the MCP server "editor"', 'of the editor'));
      }
      const specs = assigned.map((a) => editorTool(a.tool, a.exposed));
      cache = { key, specs };
      return specs;
    },
  };
}

function editorTool(info: LmToolInfo, exposed: string): ToolSpec {
  const schema = (info.inputSchema as Record<string, unknown> | undefined) ?? {
    type: 'object',
    properties: {},
  };
  return {
    name: exposed,
    description: `${info.description.trim() || info.name} (a tool of the editor)`,
    readOnly: false,
    actionKind: MCP_ACTION_KIND,
    observationKind: MCP_OBSERVATION_KIND,
    jsonSchema: schema,
    argsSchema: argumentsSchema(schema),
    ruleRisk: () => ({
      risk: 'MEDIUM',
      reasons: [`${info.name} is a tool of another extension; what it does is not known`],
    }),
    toActionFields: (args) => ({ data: args }),
    async execute(args, ctx) {
      const source = new vscode.CancellationTokenSource();
      const cancel = () => source.cancel();
      ctx.signal.addEventListener('abort', cancel, { once: true });
      try {
        const result = await lm()!.invokeTool!(
          info.name,
          { input: args, toolInvocationToken: undefined },
          source.token,
        );
        return await observationFromResult(
          { content: result.content.map(block) },
          {
            server: 'editor',
            from: `The editor tool ${info.name}`,
            tool: info.name,
            limits: DEFAULT_RESULT_LIMITS,
            ctx,
          },
        );
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        return mcpError(
          info.name,
          `The editor tool ${info.name} failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      } finally {
        ctx.signal.removeEventListener('abort', cancel);
        source.dispose();
      }
    },
    actionPayloadSchema: McpActionPayloadSchema,
    observationPayloadSchema: McpObservationPayloadSchema,
  };
}

/** A result part as an MCP content block: text, an image, or JSON of anything else. */
function block(part: LmPart): Record<string, unknown> {
  if (typeof part.value === 'string') return { type: 'text', text: part.value };
  if (part.data instanceof Uint8Array && part.mimeType?.startsWith('image/'))
    return { type: 'image', data: Buffer.from(part.data).toString('base64'), mimeType: part.mimeType };
  if (part.data instanceof Uint8Array && part.mimeType?.startsWith('text/'))
    return { type: 'text', text: Buffer.from(part.data).toString('utf8') };
  return { type: 'text', text: JSON.stringify(part.value ?? part) };
}
