// A realistic conversation for the benchmarks, as the runtime writes it, deterministic per seed:
// shared by the state benchmark (bench/state-bench.ts), the open benchmarks (bench/open-bench.ts,
// bench/vscode-open-bench.ts) and the tests that need a long conversation.
import { ConversationMemory } from '../src/core/agent/conversation-memory';
import { type CondensationPlan, LlmSummarizingCondenser } from '../src/core/context';
import { createEvent, type Event } from '../src/core/events';
import { ACTION_STARTED_KEY, EXECUTION_STATUS_KEY, initialState, LLM_USAGE_KEY } from '../src/core/state';
import { defaultTools, toolDefinition } from '../src/core/tools';
import { rng } from './events';

// The extension registers the tools' payload schemas, so stored payloads are validated on read.
const TOOLS = defaultTools();

const WORDS =
  'the agent reads file src index test build error fix function return value const let await async import export module package json config run command output line column warning pass fail npm tsc "quoted" path/to/file.ts:42:7 {"key": 1}'.split(
    ' ',
  );

/**
 * A conversation as the runtime writes it: a system prompt, then turns of a user message, a
 * status update and agent steps (action, action_started, observation, llm_usage; now and then an
 * agent message), each event naming the previous one as parent. Sizes: user messages 0.2–4 KB,
 * action thoughts 0.3–5 KB, observations 0.2–50 KB (log-uniform: most tool outputs are small).
 */
export class ConversationGenerator {
  private readonly r: () => number;
  private readonly corpus: string;
  private readonly queue: Event[] = [];
  private head: string | null = null;
  private n = 0;
  private stepsLeft = 0;
  private readonly t0 = Date.UTC(2026, 5, 16, 5, 39, 18);

  constructor(seed: number) {
    this.r = rng(seed);
    let c = '';
    while (c.length < 1 << 20)
      c += WORDS[Math.floor(this.r() * WORDS.length)]! + (this.r() < 0.08 ? '\n' : ' ');
    this.corpus = c;
  }

  next(): Event {
    if (this.queue.length === 0) this.refill();
    return this.queue.shift()!;
  }

  /** Between two agent steps: where the runtime asks its condenser whether to condense. */
  get betweenSteps(): boolean {
    return this.queue.length === 0 && this.n > 0;
  }

  /** The Condensation the runtime would append for this plan, with a 1–2 KB summary. */
  condense(plan: CondensationPlan): void {
    this.push(
      createEvent('Condensation', {
        ...this.base(),
        forgotten_event_ids: plan.forgotten.map((e) => e.id),
        summary: this.text(1000, 2000),
        summary_offset: plan.summaryOffset,
        llm_response_id: `chatcmpl-${this.uuid()}`,
      }),
    );
  }

  private text(min: number, max: number, logUniform = false): string {
    const len = Math.round(logUniform ? min * Math.pow(max / min, this.r()) : min + this.r() * (max - min));
    let out = '';
    while (out.length < len) {
      const at = Math.floor(this.r() * (this.corpus.length - 4096));
      out += this.corpus.slice(at, at + Math.min(4096, len - out.length));
    }
    return out;
  }

  private uuid(): string {
    const h = (k: number) => Array.from({ length: k }, () => Math.floor(this.r() * 16).toString(16)).join('');
    return `${h(8)}-${h(4)}-4${h(3)}-a${h(3)}-${h(12)}`;
  }

  /** id, timestamp and parent of the next event. */
  private base(): { id: string; timestamp: string; parent_id: string | null } {
    const b = {
      id: this.uuid(),
      timestamp: new Date(this.t0 + this.n++ * 1500).toISOString(),
      parent_id: this.head,
    };
    this.head = b.id;
    return b;
  }

  private push(e: Event): void {
    this.queue.push(e);
  }

  private refill(): void {
    if (this.n === 0) {
      this.push(
        createEvent('SystemPromptEvent', {
          ...this.base(),
          system_prompt: { type: 'text', text: this.text(3000, 3000) },
          tools: TOOLS.map((t) => toolDefinition(t) as unknown as Record<string, unknown>),
        }),
      );
      return;
    }
    if (this.stepsLeft === 0) {
      this.stepsLeft = 3 + Math.floor(this.r() * 40);
      this.push(
        createEvent('MessageEvent', {
          ...this.base(),
          llm_message: { role: 'user', content: [{ type: 'text', text: this.text(200, 4000) }] },
        }),
      );
      this.push(
        createEvent('ConversationStateUpdateEvent', {
          ...this.base(),
          key: EXECUTION_STATUS_KEY,
          value: 'running',
        }),
      );
      return;
    }
    this.stepsLeft--;
    const responseId = `chatcmpl-${this.uuid()}`;
    if (this.stepsLeft === 0 || this.r() < 0.05) {
      this.push(
        createEvent('MessageEvent', {
          ...this.base(),
          llm_message: { role: 'assistant', content: [{ type: 'text', text: this.text(200, 2000) }] },
          llm_response_id: responseId,
        }),
      );
    } else {
      const callId = `call_${this.uuid().slice(0, 8)}`;
      const command = this.text(40, 200).replace(/\n/g, ' ');
      const action = createEvent('ActionEvent', {
        ...this.base(),
        thought: [{ type: 'text', text: this.text(300, 4800) }],
        action: { kind: 'TerminalAction', command },
        tool_name: 'terminal',
        tool_call_id: callId,
        tool_call: { id: callId, name: 'terminal', arguments: JSON.stringify({ command }) },
        llm_response_id: responseId,
        security_risk: 'LOW',
      });
      this.push(action);
      this.push(
        createEvent('ConversationStateUpdateEvent', {
          ...this.base(),
          key: ACTION_STARTED_KEY,
          value: { action_id: action.id, tool_call_id: callId },
        }),
      );
      this.push(
        createEvent('ObservationEvent', {
          ...this.base(),
          observation: {
            kind: 'TerminalObservation',
            content: [{ type: 'text', text: this.text(200, 50_000, true) }],
            command,
            exit_code: this.r() < 0.9 ? 0 : 1,
          },
          action_id: action.id,
          tool_name: 'terminal',
          tool_call_id: callId,
        }),
      );
    }
    this.push(
      createEvent('ConversationStateUpdateEvent', {
        ...this.base(),
        key: LLM_USAGE_KEY,
        value: {
          usage_id: 'agent',
          model: 'gpt-5-mini',
          prompt_tokens: 2000 + Math.floor(this.r() * 60_000),
          completion_tokens: Math.floor(this.r() * 2000),
          cached_tokens: Math.floor(this.r() * 40_000),
          reasoning_tokens: Math.floor(this.r() * 500),
          cost: this.r() * 0.05,
          latency_ms: 500 + Math.floor(this.r() * 20_000),
          response_id: responseId,
        },
      }),
    );
    if (this.stepsLeft === 0) {
      this.push(
        createEvent('ConversationStateUpdateEvent', {
          ...this.base(),
          key: EXECUTION_STATUS_KEY,
          value: 'finished',
        }),
      );
    }
  }
}

/**
 * Calls `visit` with each of `n` events of the conversation of `seed`, in order, and the memory a
 * running Conversation would hold after it (its state and view; a Condensation is appended whenever
 * the default condenser would make one, planned on that view).
 */
export async function generateConversation(
  n: number,
  seed: number,
  id: string,
  visit: (e: Event, index: number, memory: ConversationMemory) => void | Promise<void>,
): Promise<void> {
  const gen = new ConversationGenerator(seed);
  const memory = ConversationMemory.empty(initialState(id));
  const condenser = new LlmSummarizingCondenser();
  for (let i = 0; i < n; i++) {
    if (gen.betweenSteps) {
      const plan = condenser.plan((await memory.prompt()).view);
      if (plan) gen.condense(plan);
    }
    const e = gen.next();
    memory.absorb(e, i);
    await visit(e, i, memory);
  }
}
