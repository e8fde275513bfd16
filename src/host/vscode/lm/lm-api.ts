// The part of VS Code's Language Model API the editor-model provider uses, found at run time.
// The extension supports VS Code 1.93, whose API has chat models but no tool calling (that came in
// 1.95), and builds such as code-server may have no models at all: so the classes are looked up on
// the `vscode` module and typed here, and a missing piece is reported, not a crash.
import type * as vscode from 'vscode';

export interface LmTextPart {
  readonly value: string;
}
export interface LmToolCallPart {
  readonly callId: string;
  readonly name: string;
  readonly input: object;
}

export interface LmChatModel {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  countTokens(text: string, token?: vscode.CancellationToken): Thenable<number>;
  sendRequest(
    messages: unknown[],
    options: { tools?: LmTool[]; toolMode?: number; justification?: string },
    token?: vscode.CancellationToken,
  ): Thenable<{ stream: AsyncIterable<unknown> }>;
}

export interface LmTool {
  name: string;
  description: string;
  inputSchema?: object;
}

type Ctor<A extends unknown[], T> = new (...args: A) => T;

export interface LmApi {
  selectChatModels(selector?: { id?: string; family?: string; vendor?: string }): Thenable<LmChatModel[]>;
  User(content: unknown[]): unknown;
  Assistant(content: unknown[]): unknown;
  TextPart: Ctor<[string], LmTextPart>;
  ToolCallPart: Ctor<[string, string, object], LmToolCallPart>;
  ToolResultPart: Ctor<[string, unknown[]], unknown>;
  /** LanguageModelError, to tell its codes apart; absent in builds without it. */
  ErrorClass: (abstract new (...args: never[]) => Error & { code: string }) | undefined;
}

/** The API, or why the editor's models cannot be used in this VS Code. */
export function findLmApi(v: typeof vscode): LmApi | { missing: string } {
  const api = v as unknown as Record<string, unknown>;
  const lm = api.lm as { selectChatModels?: LmApi['selectChatModels'] } | undefined;
  const message = api.LanguageModelChatMessage as
    { User?: LmApi['User']; Assistant?: LmApi['Assistant'] } | undefined;
  if (typeof lm?.selectChatModels !== 'function' || !message?.User || !message.Assistant) {
    return { missing: `VS Code ${v.version} has no Language Model API (it came in 1.90)` };
  }
  if (
    typeof api.LanguageModelToolCallPart !== 'function' ||
    typeof api.LanguageModelToolResultPart !== 'function'
  ) {
    return {
      missing: `VS Code ${v.version} has no tool calling in its Language Model API (it came in 1.95)`,
    };
  }
  return {
    selectChatModels: (selector) => lm.selectChatModels!(selector),
    User: (content) => message.User!(content),
    Assistant: (content) => message.Assistant!(content),
    TextPart: api.LanguageModelTextPart as LmApi['TextPart'],
    ToolCallPart: api.LanguageModelToolCallPart as LmApi['ToolCallPart'],
    ToolResultPart: api.LanguageModelToolResultPart as LmApi['ToolResultPart'],
    ErrorClass: api.LanguageModelError as LmApi['ErrorClass'],
  };
}

export function isLmApi(found: LmApi | { missing: string }): found is LmApi {
  return !('missing' in found);
}
