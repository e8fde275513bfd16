/**
 * Condenser that forgets the middle of a long view and replaces it by an LLM-written summary,
 * which folds in the previous summary so summaries chain. It returns the fields of the
 * Condensation event; the caller appends it and the View applies it.
 */
import {
  type CondensationSummaryEvent,
  type Event,
  isKind,
  isLlmConvertible,
  type LlmConvertibleEvent,
} from '../events';
import type { LlmClient } from '../llm/types';
import { type CondensationPlan, type PlanLimits, planCondensation } from './condensation-plan';
import { type ForgottenRange, forgottenFields } from './forgotten-range';
import { summaryMessages } from './summary-prompt';
import { CHARS_PER_TOKEN, estimateTokensOf } from './token-estimate';
import type { ViewLike } from './view';

export interface SummarizingCondenserOptions {
  /** Most events the view may hold before it is condensed (to about half). Default 120. */
  maxSize?: number;
  /** Events at the start that are never forgotten (system prompt, the task). Default 4. */
  keepFirst?: number;
  /** Estimated prompt tokens above which the view is condensed; see tokenLimitForContextWindow. */
  maxTokens?: number;
  /** Skip a size/token condensation that would forget less than this fraction of the view. Default 0.1. */
  minimumProgress?: number;
  /** Cap on the summary's length, passed to the LLM. Default 2048. */
  maxSummaryTokens?: number;
  /** Longest text of one forgotten event shown to the summarizer. Default 4000. */
  maxEventChars?: number;
  /**
   * Most characters of forgotten events shown to the summarizer in one request (the newest ones).
   * Default: half of maxTokens in characters when it is set, else 200,000 (about 50k tokens).
   */
  maxSummaryInputChars?: number;
}

/** The fields of the Condensation event to append (snake_case, as stored). */
export interface CondensationFields {
  forgotten_event_ids: string[];
  forgotten_range?: ForgottenRange;
  summary: string | null;
  summary_offset: number | null;
  llm_response_id: string | null;
}

export interface CondenseOptions {
  /** Condense even below the limits (after a context-window error, or on request). */
  force?: boolean;
  signal?: AbortSignal;
}

/**
 * A token limit for a model's context window: room for the reply, and a margin because the
 * estimate (chars / 4) is rough.
 */
export function tokenLimitForContextWindow(contextWindowTokens: number, maxOutputTokens = 4096): number {
  return Math.max(1, Math.floor((contextWindowTokens - maxOutputTokens) * 0.8));
}

export class LlmSummarizingCondenser {
  private readonly limits: PlanLimits;
  private readonly maxSummaryTokens: number;
  private readonly maxEventChars: number;
  private readonly maxInputChars: number;

  constructor(options: SummarizingCondenserOptions = {}) {
    this.maxSummaryTokens = options.maxSummaryTokens ?? 2048;
    this.maxEventChars = options.maxEventChars ?? 4000;
    this.maxInputChars =
      options.maxSummaryInputChars ??
      (options.maxTokens === undefined ? 200_000 : Math.floor((options.maxTokens * CHARS_PER_TOKEN) / 2));
    this.limits = {
      maxSize: options.maxSize ?? 120,
      keepFirst: options.keepFirst ?? 4,
      maxTokens: options.maxTokens,
      minimumProgress: options.minimumProgress ?? 0.1,
      summaryTokens: this.maxSummaryTokens,
    };
    if (this.limits.maxSize < this.limits.keepFirst + 2) {
      throw new Error(
        `maxSize (${this.limits.maxSize}) must leave room after keepFirst (${this.limits.keepFirst})`,
      );
    }
  }

  /** The condensation that is due for this view, or undefined. */
  plan(view: ViewLike | readonly Event[], force = false): CondensationPlan | undefined {
    return planCondensation(asView(view), this.limits, force);
  }

  shouldCondense(view: ViewLike | readonly Event[], force = false): boolean {
    return this.plan(view, force) !== undefined;
  }

  /**
   * Summarizes what the plan forgets; null when there is nothing to condense (e.g. a forced
   * request on a view that is only its head). LLM failures propagate as LlmError.
   */
  async condense(
    view: ViewLike | readonly Event[],
    llm: LlmClient,
    opts: CondenseOptions | AbortSignal = {},
  ): Promise<CondensationFields | null> {
    const { force, signal } = opts instanceof AbortSignal ? { force: false, signal: opts } : opts;
    const v = asView(view);
    const plan = planCondensation(v, this.limits, force);
    if (!plan) return null;
    const messages = summaryMessages({
      previousSummary: v.summary?.summary,
      forgotten: plan.forgotten,
      maxEventChars: this.maxEventChars,
      maxTotalChars: this.maxInputChars,
    });
    const response = await llm.complete({ messages, maxOutputTokens: this.maxSummaryTokens }, { signal });
    return {
      ...forgottenFields(plan.forgotten),
      summary: response.content.trim(),
      summary_offset: plan.summaryOffset,
      llm_response_id: response.id,
    };
  }
}

/** Accepts a plain list of view events too (the agent's port passes those). */
function asView(view: ViewLike | readonly Event[]): ViewLike {
  if (!Array.isArray(view)) return view as ViewLike;
  const events = (view as readonly Event[]).filter(isLlmConvertible) as LlmConvertibleEvent[];
  let summary: CondensationSummaryEvent | undefined;
  for (const e of events) if (isKind(e, 'CondensationSummaryEvent')) summary = e;
  let unhandledCondensationRequest = false;
  for (const e of view as readonly Event[]) {
    if (isKind(e, 'CondensationRequest')) unhandledCondensationRequest = true;
    else if (isKind(e, 'Condensation')) unhandledCondensationRequest = false;
  }
  return {
    events,
    size: events.length,
    summary,
    unhandledCondensationRequest,
    estimatedTokens: estimateTokensOf(events),
  };
}
