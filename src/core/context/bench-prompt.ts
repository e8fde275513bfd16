/**
 * Benchmark of building the next prompt: a ViewBuilder holds `n` synthetic events, then each
 * sample appends one more event and asks for the messages. Only that step is timed (events are
 * created beforehand). The W4 target is 10k events within 1.5x of 1k.
 */
import { performance } from 'node:perf_hooks';
import { type ActionEvent, createEvent, type Event } from '../events';
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

export function benchPromptBuild(n: number, samples = 200): PromptBuildBench {
  const gen = new SyntheticConversation();
  const builder = new ViewBuilder();
  for (let i = 0; i < n; i++) builder.append(gen.next());
  builder.messages(); // warm caches and JIT on the untimed part
  const extra = Array.from({ length: samples }, () => gen.next());
  const times: number[] = [];
  let messages = 0;
  for (const e of extra) {
    const start = performance.now();
    builder.append(e);
    messages = builder.messages().length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    events: n,
    viewSize: builder.size,
    messages,
    samples,
    medianMs: times[Math.floor(times.length / 2)]!,
    p90Ms: times[Math.floor(times.length * 0.9)]!,
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

/** Runs benchPromptBuild per size; `ratio` is the median of the largest over the smallest. */
export function benchPromptBuildScaling(
  sizes: readonly number[] = [1_000, 10_000],
  samples = 200,
): { results: PromptBuildBench[]; ratio: number } {
  benchPromptBuild(Math.min(...sizes), samples); // warm-up run, discarded
  const results = sizes.map((n) => benchPromptBuild(n, samples));
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
