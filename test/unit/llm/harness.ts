// Shared setup for client tests: one scripted server per suite, a client whose sleeps are recorded.
import { type LlmSettings, OpenAiLlmClient, type OpenAiLlmClientDeps } from '../../../src/core/llm';
import { modelFetch } from '../../../src/host/node/model-fetch';
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

/**
 * The fetches a client is tested through: Node's (the editor's default) and the CLI's own
 * (host/node/model-fetch.ts); each suite of the client runs once per fetch.
 */
export const FETCHES: readonly { name: string; fetch: typeof fetch | undefined }[] = [
  { name: "Node's fetch", fetch: undefined },
  { name: 'the CLI’s fetch', fetch: modelFetch() },
];

/** One describe block per fetch of FETCHES, each with its own harness. */
export function describeEachFetch(title: string, suite: (h: Harness) => void): void {
  for (const via of FETCHES)
    describe(`${title}, through ${via.name}`, () => suite(useScriptedLlm(via.fetch)));
}

/** Registers before/after hooks in the calling describe block; clients use `fetch` unless told otherwise. */
export function useScriptedLlm(fetch?: typeof globalThis.fetch): Harness {
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
          ...(fetch ? { fetch } : {}),
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
