// Deterministic, realistic-looking OpenHands-style events for the benchmarks: user and agent
// messages, tool actions and their observations, state updates; 0.2-50 KB each (observations
// log-uniform, since most tool outputs are small and a few are huge).
import { type StoredEvent } from '../src/core/log';

export interface BenchEvent extends StoredEvent {
  source: string;
  timestamp: string;
}

/** A small deterministic generator (xorshift32), so every run writes the same data. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

const WORDS =
  'the agent reads file src index test build error fix function return value const let await async import export module package json config run command output line column warning pass fail'.split(
    ' ',
  );

function text(r: () => number, bytes: number): string {
  let out = '';
  while (out.length < bytes) out += WORDS[Math.floor(r() * WORDS.length)]! + (r() < 0.08 ? '\n' : ' ');
  return out.slice(0, bytes);
}

function uuid(r: () => number): string {
  const h = (n: number) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${h(8)}-${h(4)}-4${h(3)}-a${h(3)}-${h(12)}`;
}

/** Sizes: message 0.2-4 KB, action 0.5-5 KB, observation 0.2-50 KB (log-uniform), state 0.2-1 KB. */
export function generateEvents(n: number, seed = 42): { events: BenchEvent[]; durable: boolean[] } {
  const r = rng(seed);
  const events: BenchEvent[] = [];
  const durable: boolean[] = [];
  let lastAction: string | null = null;
  const t0 = Date.UTC(2026, 5, 16, 5, 39, 18);
  for (let i = 0; i < n; i++) {
    const id = uuid(r);
    const timestamp = new Date(t0 + i * 1500).toISOString().replace('Z', '');
    const p = r();
    let e: BenchEvent;
    let isDurable = false;
    if (lastAction) {
      // every action is followed by its observation
      e = {
        id,
        kind: 'ObservationEvent',
        source: 'environment',
        timestamp,
        parent_id: lastAction,
        action_id: lastAction,
        tool_name: 'terminal',
        tool_call_id: `call_${id.slice(0, 8)}`,
        observation: {
          kind: 'ExecuteBashObservation',
          content: [{ type: 'text', text: text(r, Math.round(200 * Math.pow(250, r()))) }],
          exit_code: r() < 0.9 ? 0 : 1,
        },
      };
      lastAction = null;
    } else if (p < 0.12) {
      const user = r() < 0.5;
      e = {
        id,
        kind: 'MessageEvent',
        source: user ? 'user' : 'agent',
        timestamp,
        llm_message: {
          role: user ? 'user' : 'assistant',
          content: [{ type: 'text', text: text(r, 200 + Math.floor(r() * 3800)) }],
        },
      };
      isDurable = user; // user messages are durable
    } else if (p < 0.35) {
      e = {
        id,
        kind: 'ConversationStateUpdateEvent',
        source: 'environment',
        timestamp,
        key: 'stats',
        value: {
          accumulated_cost: r(),
          prompt_tokens: Math.floor(r() * 1e5),
          note: text(r, 100 + Math.floor(r() * 700)),
        },
      };
    } else {
      e = {
        id,
        kind: 'ActionEvent',
        source: 'agent',
        timestamp,
        thought: [{ type: 'text', text: text(r, 300 + Math.floor(r() * 4500)) }],
        action: { kind: 'ExecuteBashAction', command: text(r, 40 + Math.floor(r() * 160)) },
        tool_name: 'terminal',
        tool_call_id: `call_${id.slice(0, 8)}`,
        llm_response_id: uuid(r),
        security_risk: 'LOW',
      };
      lastAction = id;
      isDurable = true; // an action precedes a side effect
    }
    events.push(e);
    durable.push(isDurable);
  }
  return { events, durable };
}
