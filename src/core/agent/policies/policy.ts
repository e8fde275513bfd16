// The policies of a conversation (its mode, budgets, caps, the tools it offers...) as small parts
// the loop consults at fixed points through one interface. A policy implements only the hooks it
// needs; a new one is added to the list in `default-policies.ts`, never to the loop.
import type { ActionEvent, Event } from '../../events';
import type { ChatMessage } from '../../events/to-messages';
import type { LlmResponse } from '../../llm/types';
import type { ToolSpec } from '../../tools';
import type { ConversationLog } from '../conversation-journal';
import type { AgentSettings } from '../settings';

/** What a policy reads and records through. */
export interface PolicyContext {
  readonly log: ConversationLog;
  /** The settings now (the host may change them between runs). */
  readonly settings: AgentSettings;
  /** The recent events of the agent's turn (since the user's last message). */
  readonly recent: readonly Event[];
}

/** 'stop': the run must not go on; the policy has recorded why. */
export type Verdict = 'go' | 'stop';

/** A tool call of the model's reply, before it is validated. */
export interface ReplyCall {
  name: string;
  /** Its place in the reply (from 0) and how many calls the reply made. */
  index: number;
  total: number;
}

/** A tool call that validated: its tool and arguments. */
export interface ValidCall {
  spec: ToolSpec;
  args: Record<string, unknown>;
}

export interface ConversationPolicy {
  readonly name: string;
  /** When a run starts, and before pending actions are approved (and so rated). */
  prepare?(ctx: PolicyContext): Promise<void>;
  /** Before each request to the model. */
  beforeRequest?(ctx: PolicyContext): Promise<Verdict>;
  /** The request's messages as this policy needs them. */
  messages?(messages: ChatMessage[], ctx: PolicyContext): ChatMessage[];
  /** After the model replied, before its reply is recorded. */
  afterReply?(response: LlmResponse, ctx: PolicyContext): Promise<void>;
  /** Why a call of the reply is refused before it is validated (the model reads it), or null. */
  refuseCall?(call: ReplyCall, ctx: PolicyContext): string | null;
  /** Why a call that validated is refused before it is recorded as an action, or null. */
  refuseValidCall?(call: ValidCall, ctx: PolicyContext): string | null;
  /** Why a recorded action may not run now (it is answered with the refusal), or null. */
  refuseAction?(action: ActionEvent, ctx: PolicyContext): string | null;
  /** After every step, whatever its outcome. */
  afterStep?(ctx: PolicyContext): Promise<void>;
  /** Between two steps, when the run would go on. */
  beforeNextStep?(ctx: PolicyContext): Promise<Verdict>;
}

/**
 * The policies of one conversation, consulted in their order: for a verdict the first 'stop'
 * ends the round (later policies are not asked), for a refusal the first one given wins.
 */
export class ConversationPolicies {
  constructor(
    private readonly list: readonly ConversationPolicy[],
    private readonly ctx: PolicyContext,
  ) {}

  get names(): string[] {
    return this.list.map((p) => p.name);
  }

  async prepare(): Promise<void> {
    for (const p of this.list) await p.prepare?.(this.ctx);
  }

  beforeRequest(): Promise<Verdict> {
    return this.firstStop((p) => p.beforeRequest?.(this.ctx));
  }

  messages(messages: ChatMessage[]): ChatMessage[] {
    return this.list.reduce((m, p) => p.messages?.(m, this.ctx) ?? m, messages);
  }

  async afterReply(response: LlmResponse): Promise<void> {
    for (const p of this.list) await p.afterReply?.(response, this.ctx);
  }

  refuseCall(call: ReplyCall): string | null {
    return this.firstRefusal((p) => p.refuseCall?.(call, this.ctx));
  }

  refuseValidCall(call: ValidCall): string | null {
    return this.firstRefusal((p) => p.refuseValidCall?.(call, this.ctx));
  }

  refuseAction(action: ActionEvent): string | null {
    return this.firstRefusal((p) => p.refuseAction?.(action, this.ctx));
  }

  async afterStep(): Promise<void> {
    for (const p of this.list) await p.afterStep?.(this.ctx);
  }

  beforeNextStep(): Promise<Verdict> {
    return this.firstStop((p) => p.beforeNextStep?.(this.ctx));
  }

  private async firstStop(ask: (p: ConversationPolicy) => Promise<Verdict> | undefined): Promise<Verdict> {
    for (const p of this.list) if ((await ask(p)) === 'stop') return 'stop';
    return 'go';
  }

  private firstRefusal(ask: (p: ConversationPolicy) => string | null | undefined): string | null {
    for (const p of this.list) {
      const refusal = ask(p);
      if (refusal) return refusal;
    }
    return null;
  }
}
