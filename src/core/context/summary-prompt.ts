/**
 * The prompt that asks an LLM to fold forgotten events into the running summary. Events are shown
 * as labelled plain text (not as chat messages) so the model summarizes them instead of continuing
 * the conversation, and each is shortened so a forced condensation fits in the window.
 */
import { type LlmConvertibleEvent, text, textOf, thinking } from '../events';
import type { ChatMessage } from '../events';

export const SUMMARY_SYSTEM_PROMPT = `You keep the working memory of a coding agent. The oldest part of its conversation is about to be removed from its context window; your summary replaces it. The agent will continue from the summary plus the most recent events, so anything you leave out is lost to it.

Write a summary with these sections, omitting a section only when it would be empty:
USER GOALS: what the user asked for, with every explicit requirement and constraint, in their words where precise wording matters.
PROGRESS: what has been done and verified, and what was tried and failed (with the reason).
FILES AND CODE: paths created, changed or read, and the facts about them the agent will need (names, signatures, line numbers, config values).
COMMANDS AND ERRORS: commands run and their significant results; unresolved error messages verbatim.
CURRENT STATE: what the agent was doing when these events end, and the next concrete steps.

If a previous summary is given, produce one updated summary that keeps what still matters from it and adds the new events; do not mention that there were several summaries. Keep exact identifiers, paths and numbers. Be dense: no pleasantries, no speculation. Reply with the summary only.`;

export interface SummaryPromptInput {
  previousSummary: string | undefined;
  forgotten: readonly LlmConvertibleEvent[];
  /** Longest rendering of one event; longer texts keep their start and end. */
  maxEventChars: number;
  /**
   * Most characters of events shown in all: the newest forgotten events that fit, the older ones
   * named only by their number. A run that was never condensed (a long import) can hold a whole
   * log, which no model could read in one request.
   */
  maxTotalChars?: number;
}

export function summaryMessages(input: SummaryPromptInput): ChatMessage[] {
  const parts: string[] = [];
  if (input.previousSummary) {
    parts.push(`<previous_summary>\n${input.previousSummary}\n</previous_summary>`);
  }
  const budget = input.maxTotalChars ?? Infinity;
  // Newest first, and only as many as fit: the others are never rendered.
  const rendered: string[] = [];
  let used = 0;
  for (let i = input.forgotten.length - 1; i >= 0; i--) {
    const r = shorten(renderEvent(input.forgotten[i]!), input.maxEventChars);
    if (used + r.length > budget && rendered.length > 0) break;
    rendered.push(r);
    used += r.length + 2;
  }
  rendered.reverse();
  const omitted = input.forgotten.length - rendered.length;
  if (omitted > 0) rendered.unshift(`[${omitted} earlier events omitted: too many to show at once]`);
  parts.push(`<events>\n${rendered.join('\n\n')}\n</events>`);
  parts.push('Write the updated summary now.');
  return [
    { role: 'system', content: SUMMARY_SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

export function renderEvent(e: LlmConvertibleEvent): string {
  switch (e.kind) {
    case 'MessageEvent':
      return `[${e.llm_message.role === 'user' ? 'user' : 'agent'} message]\n${text(e)}`;
    case 'ActionEvent': {
      const thought = textOf(e.thought) || thinking(e);
      const call = `${e.tool_call.name}(${e.tool_call.arguments})`;
      return `[agent tool call]\n${thought ? `${thought}\n` : ''}${call}`;
    }
    case 'ObservationEvent':
      return `[result of ${e.tool_name}]\n${text(e)}`;
    case 'UserRejectObservation':
      return `[user rejected ${e.tool_name}]\n${e.rejection_reason}`;
    case 'AgentErrorEvent':
      return `[error in ${e.tool_name}]\n${e.error}`;
    case 'SystemPromptEvent':
      return `[system prompt]\n${text(e)}`;
    case 'CondensationSummaryEvent':
      return `[earlier summary]\n${e.summary}`;
  }
}

export function shorten(s: string, max: number): string {
  if (s.length <= max) return s;
  const keep = Math.max(0, max - 40);
  const head = Math.ceil(keep * 0.7);
  const tail = keep - head;
  return `${s.slice(0, head)}\n[… ${s.length - head - tail} characters omitted …]\n${tail > 0 ? s.slice(-tail) : ''}`;
}
