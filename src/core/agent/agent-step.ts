// One step of the agent when no action is pending: the request (the history condensed when it no
// longer fits, the policies asked, the prompt built, the model called, its retries recorded), then
// its reply and the actions it asks for (reply-actions.ts).
import type { CreateFields } from '../events';
import { isLlmError, LlmError, type LlmClient, type LlmDelta, type LlmResponse } from '../llm/types';
import { toolDefinition, type ToolSpec } from '../tools';
import { projectImages } from '../attachments/project-images';
import type { ConversationLog } from './conversation-journal';
import { LLM_RETRY_KEY, llmRetryValue } from './llm-retry';
import type { HistoryCondenser } from './ports';
import type { PromptBuilder } from './prompt-builder';
import type { ConversationPolicies } from './policies/policy';
import { recordReply } from './reply-actions';

export type StepOutcome = 'llm' | 'condensed' | 'finished' | 'stopped' | 'error';

/** Whether the model takes images, and where stored images are loaded from. */
export interface ImagePort {
  supportsImages(): boolean;
  load(url: string): Promise<string | undefined>;
}

export interface AgentStepDeps {
  /** The conversation's id: the request's cache key. */
  id: string;
  llm: LlmClient;
  condenser?: HistoryCondenser;
  /** Model used for summaries; default: the agent's. */
  condenserLlm?: LlmClient;
  images?: ImagePort;
  log: ConversationLog;
  /** What the next prompt is built from (read from the log the first time, after an open). */
  prompt: () => Promise<PromptBuilder>;
  policies: ConversationPolicies;
  /** The tools offered now. */
  tools: () => ToolSpec[];
  /** A new signal for this request: the conversation's interrupt aborts it. */
  abortable: () => AbortSignal;
  /** Streams a delta of the reply to who listens (never logged). */
  emitDelta: (d: LlmDelta | { type: 'end' }) => void;
  /** Before a condensation: the PreCompact hooks ('manual': asked for; 'auto': the view grew too large). */
  beforeCompact?: (trigger: 'manual' | 'auto') => Promise<void>;
}

export class AgentStep {
  private condenseRequested = false;

  constructor(private readonly deps: AgentStepDeps) {}

  /** Asks for a condensation of the history before the next request. */
  requestCondensation(): void {
    this.condenseRequested = true;
  }

  /** Condenses the history now, even below the limits; false when nothing was condensed. */
  async condenseNow(): Promise<boolean> {
    const { condenser, condenserLlm, llm, log } = this.deps;
    if (!condenser) return false;
    await this.deps.beforeCompact?.('manual');
    const { view } = await this.deps.prompt();
    const fields = await condenser.condense(view, condenserLlm ?? llm, { force: true });
    if (!fields) return false;
    await log.append('Condensation', fields as CreateFields<'Condensation'>);
    return true;
  }

  /** Condenses the history, or asks the model and records its reply. */
  async take(): Promise<StepOutcome> {
    const condensed = await this.condenseIfDue();
    if (condensed) return condensed;
    if ((await this.deps.policies.beforeRequest()) === 'stop') return 'error';
    const response = await this.request();
    if (typeof response === 'string') return response;
    return recordReply(response, this.deps);
  }

  /** 'condensed' or 'error' when this step was a condensation; undefined when none was due. */
  private async condenseIfDue(): Promise<'condensed' | 'error' | undefined> {
    const { condenser, condenserLlm, llm, log } = this.deps;
    if (!condenser) return undefined;
    const { view } = await this.deps.prompt();
    if (!(this.condenseRequested || condenser.shouldCondense(view))) return undefined;
    const force = this.condenseRequested;
    this.condenseRequested = false;
    await this.deps.beforeCompact?.(force ? 'manual' : 'auto');
    const fields = await condenser.condense(view, condenserLlm ?? llm, { force });
    if (fields) {
      await log.append('Condensation', fields as CreateFields<'Condensation'>);
      return 'condensed';
    }
    if (!force) return undefined;
    // Retrying the same prompt would hit the same limit: stop with a clear reason instead.
    await log.fail(
      'llm_context_window_exceeded',
      "The conversation no longer fits the model's context window and there is nothing left to condense.",
    );
    return 'error';
  }

  /** The model's reply, or the outcome of a failed call. */
  private async request(): Promise<LlmResponse | 'stopped' | 'error' | 'condensed'> {
    const { id, llm, images, log, prompt, policies, tools, emitDelta } = this.deps;
    const signal = this.deps.abortable();
    let response: LlmResponse;
    try {
      const messages = await projectImages(policies.messages((await prompt()).messages()), {
        supportsImages: images?.supportsImages() ?? true,
        load: (url) => images?.load(url) ?? Promise.resolve(undefined),
      });
      response = await llm.complete(
        { messages, tools: tools().map((t) => toolDefinition(t)), cacheKey: id },
        {
          signal,
          onDelta: (d) => emitDelta(d),
          // Recorded before the wait, so the chat says what is happening instead of just "Running".
          onRetry: async (notice) => {
            await log.append('ConversationStateUpdateEvent', {
              key: LLM_RETRY_KEY,
              value: llmRetryValue(notice),
            });
          },
        },
      );
    } catch (err) {
      emitDelta({ type: 'end' });
      return this.failed(err);
    }
    emitDelta({ type: 'end' });
    return response;
  }

  /** A call that failed: stopped by the user, a history to condense, or the run's error. */
  private async failed(err: unknown): Promise<'stopped' | 'error' | 'condensed'> {
    const e = isLlmError(err)
      ? err
      : new LlmError('connection', err instanceof Error ? err.message : String(err));
    if (e.kind === 'aborted') return 'stopped';
    if (e.kind === 'context_window_exceeded' && this.deps.condenser) {
      await this.deps.log.append('CondensationRequest', {} as CreateFields<'CondensationRequest'>);
      this.condenseRequested = true;
      return 'condensed';
    }
    await this.deps.log.fail(`llm_${e.kind}`, e.message);
    return 'error';
  }
}
