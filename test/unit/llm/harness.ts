// Shared setup for client tests: one scripted server per suite, a client whose sleeps are recorded.
import { type LlmSettings, OpenAiLlmClient, type OpenAiLlmClientDeps } from '../../../src/core/llm';
import { type Scenario, type ScriptedLlm, startScriptedLlm } from '../../support/llm-server';

export const MODEL = 'test-model';
export const API_KEY = 'sk-test-0123456789abcdef';
export const USER = [{ role: 'user' as const, content: 'hello' }];

export interface Harness {
  llm: ScriptedLlm;
  /** Milliseconds passed to the injected sleep, in order. */
  sleeps: number[];
  play(turns: Scenario['turns']): void;
  client(settings?: Partial<LlmSettings>, deps?: OpenAiLlmClientDeps): OpenAiLlmClient;
  /** Chat completion requests received since the last play(). */
  bodies(): Record<string, unknown>[];
}

/** Registers before/after hooks in the calling describe block. */
export function useScriptedLlm(): Harness {
  let llm: ScriptedLlm | undefined;
  let firstBody = 0;
  const h: Harness = {
    get llm() {
      if (!llm) throw new Error('scripted LLM not started');
      return llm;
    },
    sleeps: [],
    play(turns) {
      h.llm.setScenario({ name: 'llm client test', turns });
      h.sleeps.length = 0;
      firstBody = h.llm.completionBodies().length;
    },
    client(settings = {}, deps = {}) {
      return new OpenAiLlmClient(
        { baseUrl: h.llm.baseUrl, apiKey: API_KEY, model: MODEL, ...settings },
        {
          sleep: async (ms) => {
            h.sleeps.push(ms);
          },
          random: () => 0.5,
          ...deps,
        },
      );
    },
    bodies: () => h.llm.completionBodies().slice(firstBody),
  };
  before(async () => {
    llm = await startScriptedLlm({});
  });
  after(() => llm?.close());
  return h;
}

/** The rejection of `promise`, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
}
