/**
 * Benchmark of building the next prompt: a ViewBuilder holds `n` synthetic events, then each
 * sample appends one more event and asks for the messages. Only that step is timed (events are
 * created beforehand). The W4 target is 10k events within 1.5x of 1k.
 *
 * With a condenser, the conversation condenses the way the runtime does: between two agent steps
 * the condenser is asked for a plan and, when one is due, a Condensation is appended (its summary
 * text stands for the LLM's). Asking and appending are part of the timed step, as in the runtime.
 */
import { performance } from 'node:perf_hooks';
import { type ActionEvent, createEvent, type Event } from '../events';
import type { LlmSummarizingCondenser } from './summarizing-condenser';
import { ViewBuilder } from './view-builder';

export interface PromptBuildBench {
  events: number;
  viewSize: number;
  messages: number;
  samples: number;
  medianMs: number;
  p90Ms: number;
  meanMs: number;
}

/** A builder holding `n` events and the events its timed steps will append. */
class PromptBuildRun {
  private readonly builder = new ViewBuilder();
  private readonly extra: Event[];
  private next = 0;
  private messages = 0;
  readonly times: number[] = [];

  constructor(
    readonly events: number,
    samples: number,
    warmup: number,
    private readonly condenser?: LlmSummarizingCondenser,
  ) {
    const gen = new SyntheticConversation();
    for (let i = 0; i < events; i++) this.add(gen.next());
    this.builder.messages();
    this.extra = Array.from({ length: samples + warmup }, () => gen.next());
  }

  /** Appends an event, then a Condensation if one is due between two agent steps. */
  private add(e: Event): void {
    this.builder.append(e);
    if (!this.condenser || e.kind === 'ActionEvent') return;
    const plan = this.condenser.plan(this.builder);
    if (!plan) return;
    this.builder.append(
      createEvent('Condensation', {
        forgotten_event_ids: plan.forgotten.map((f) => f.id),
        summary: `Summary of ${plan.forgotten.length} earlier events: the parser work so far. `.repeat(8),
        summary_offset: plan.summaryOffset,
      }),
    );
  }

  /** Appends one more event and asks for the messages; only this is timed. */
  step(timed: boolean): void {
    const e = this.extra[this.next++]!;
    const start = performance.now();
    this.add(e);
    this.messages = this.builder.messages().length;
    if (timed) this.times.push(performance.now() - start);
  }

  result(): PromptBuildBench {
    const times = [...this.times].sort((a, b) => a - b);
    return {
      events: this.events,
      viewSize: this.builder.size,
      messages: this.messages,
      samples: times.length,
      medianMs: times[Math.floor(times.length / 2)]!,
      p90Ms: times[Math.floor(times.length * 0.9)]!,
      meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    };
  }
}

const WARMUP_STEPS = 50;

export function benchPromptBuild(
  n: number,
  samples = 200,
  condenser?: LlmSummarizingCondenser,
): PromptBuildBench {
  return benchPromptBuildScaling([n], samples, condenser).results[0]!;
}

/**
 * Times the step at every size, interleaved (one step per size in turn, after untimed warm-up
 * steps), so every size is measured under the same JIT and GC conditions; measured one size after
 * the other, the first size sometimes paid for optimizing the code and the ratio meant nothing.
 * `ratio` is the median of the largest size over the smallest.
 */
export function benchPromptBuildScaling(
  sizes: readonly number[] = [1_000, 10_000],
  samples = 200,
  condenser?: LlmSummarizingCondenser,
): { results: PromptBuildBench[]; ratio: number } {
  const runs = sizes.map((n) => new PromptBuildRun(n, samples, WARMUP_STEPS, condenser));
  for (let i = 0; i < WARMUP_STEPS; i++) for (const r of runs) r.step(false);
  for (let i = 0; i < samples; i++) for (const r of runs) r.step(true);
  const results = runs.map((r) => r.result());
  const first = results[0]!;
  const last = results.at(-1)!;
  return { results, ratio: last.medianMs / first.medianMs };
}

/** A plausible agent session: a task, then tool calls with results, a remark now and then. */
class SyntheticConversation {
  private i = 0;
  private pending: ActionEvent | undefined;

  next(): Event {
    const i = this.i++;
    if (i === 0) {
      return createEvent('SystemPromptEvent', {
        system_prompt: { type: 'text', text: 'You are a careful coding agent. '.repeat(40) },
        tools: [],
      });
    }
    if (i === 1) return message('user', 'Fix the failing tests in src/parser and explain the cause.');
    if (this.pending) {
      const action = this.pending;
      this.pending = undefined;
      return createEvent('ObservationEvent', {
        observation: {
          kind: 'BenchObservation',
          content: [{ type: 'text', text: `output of step ${i}\n${'line of tool output\n'.repeat(20)}` }],
        },
        action_id: action.id,
        tool_name: action.tool_name,
        tool_call_id: action.tool_call_id,
      });
    }
    if (i % 41 === 0) return message('assistant', `Progress note ${i}: the parser handles nested lists now.`);
    if (i % 97 === 0) return message('user', `Also keep the public API stable (${i}).`);
    const callId = `call_${i}`;
    this.pending = createEvent('ActionEvent', {
      thought: [{ type: 'text', text: `Step ${i}: check the next failing case before editing.` }],
      action: { kind: 'BenchAction', command: `npm test -- --grep case-${i}` },
      tool_name: 'terminal',
      tool_call_id: callId,
      tool_call: { id: callId, name: 'terminal', arguments: JSON.stringify({ command: `npm test -- ${i}` }) },
      llm_response_id: `resp_${i}`,
    });
    return this.pending;
  }
}

function message(role: 'user' | 'assistant', text: string): Event {
  return createEvent('MessageEvent', { llm_message: { role, content: [{ type: 'text', text }] } });
}
