// What a tool is: a name and description for the LLM, a zod schema of its arguments (which also
// yields the JSON schema sent to the model), and an executor that works only through ports.
import type { z } from 'zod';
import type { ToolPorts } from './ports';
import type { ToolDefinition } from '../llm/types';
import type { RiskAssessment } from '../security/risk';

export interface ToolContext {
  ports: ToolPorts;
  /** The primary workspace folder; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** The ActionEvent being executed (a delegation names its child conversations after it). */
  actionId?: string;
  /**
   * Its recorded payload, as completed by `prepareAction` (file_editor's `real_path`: where the
   * path led when the call was rated).
   */
  action?: Readonly<Record<string, unknown>>;
  /**
   * Aborted when the user pauses the conversation: a resumable tool that runs agents of its own
   * (a delegation) pauses them at their next step and suspends, to go on when the run resumes.
   */
  pause?: AbortSignal;
}

/** An observation payload: `kind` names it (e.g. TerminalObservation); `content` is what the LLM reads. */
export interface ToolObservation {
  kind: string;
  /** Text for the model; images (data URLs) only tools from outside return (MCP). */
  content: ({ type: 'text'; text: string } | { type: 'image'; image_urls: string[] })[];
  is_error: boolean;
  [field: string]: unknown;
}

export interface ToolSpec<Args = Record<string, unknown>> {
  /** Name the model calls, e.g. `terminal`, `file_editor`. */
  name: string;
  description: string;
  /** Read-only tools are auto-approved and take no `security_risk`/`summary` arguments. */
  readOnly: boolean;
  /**
   * Running it again continues what an earlier run left (a delegation reopens its children): its
   * start is not recorded, so a crash leaves it pending to run again rather than in doubt, and it
   * may throw SuspendAction to wait for the user.
   */
  resumable?: boolean;
  /**
   * A resumable action that will not run again (the user stopped the conversation while it was
   * suspended): ends what it left waiting (a delegation's paused agents), before it is answered.
   */
  abandon?(actionId: string): Promise<void>;
  /** A call of a tool that can change files but this one does not (file_editor's view): no checkpoint. */
  changesNoFiles?(action: Readonly<Record<string, unknown>>): boolean;
  /** `kind` of the action payload stored in ActionEvent.action, e.g. TerminalAction. */
  actionKind: string;
  /** An MCP tool's server and its own name there (the model may be offered it under another). */
  mcp?: { server: string; tool: string };
  /** Validates the model's arguments (after JSON parsing). */
  argsSchema: z.ZodType<Args>;
  /**
   * The JSON text of the parameters sent to the model, computed ahead from `argsSchema` and
   * `readOnly` (a built-in tool's, tools/builtin-parameters.ts): deriving it costs a short run more
   * than the whole text. A copy of a spec that changes either must leave this out.
   */
  parametersJson?: string;
  execute(args: Args, ctx: ToolContext): Promise<ToolObservation>;
  /** `kind` of the observation payloads `execute` returns, e.g. TerminalObservation. */
  observationKind?: string;
  /**
   * The action payload stored in ActionEvent.action (without `kind`). Defaults to the arguments
   * minus `security_risk`/`summary`, which live on the ActionEvent itself.
   */
  toActionFields?(args: Args): Record<string, unknown>;
  /** Validates stored action payloads of `actionKind` (lenient: imported OpenHands payloads must pass). */
  actionPayloadSchema?: z.ZodType;
  /** Validates stored observation payloads of `observationKind`. */
  observationPayloadSchema?: z.ZodType;
  /**
   * The JSON schema of the arguments as given by a tool from outside (an MCP server), sent to the
   * model as it is instead of one derived from `argsSchema`.
   */
  jsonSchema?: Record<string, unknown>;
  /**
   * The rule-based rating of a call, for tools the built-in rules do not know (an MCP tool's
   * annotations). Combined with the model's own rating: the higher wins.
   */
  ruleRisk?(
    args: Readonly<Record<string, unknown>>,
    action?: Readonly<Record<string, unknown>>,
  ): RiskAssessment;
  /**
   * Completes the action payload before it is recorded with what only a look outside can tell (a
   * fetch's resolved address), so the confirmation and the log show it; `ruleRisk` then reads it
   * as `action`. Must not throw: what it cannot learn it leaves out or records as such.
   */
  prepareAction?(
    args: Readonly<Record<string, unknown>>,
    action: Readonly<Record<string, unknown>> & { kind: string },
  ): Promise<Record<string, unknown> & { kind: string }>;
  /** The user allowed every call of this tool without asking (an MCP server's `alwaysAllow`). */
  alwaysAllow?: boolean;
}

/** A tool definition as the Chat Completions API expects it. */
export type ToolDefinitionFor = (spec: ToolSpec) => ToolDefinition;
