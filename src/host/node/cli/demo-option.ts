// `--demo` and LOGBOOK_DEMO=1: the agent talks to the built-in demo model (the one `npm start`
// uses), served on 127.0.0.1 for as long as the command runs, instead of a configured endpoint.
import type { LlmSettings } from '../../../core/llm';
import type { DemoServer } from '../demo-model/demo-server';

export const DEMO_OPTION = { demo: { type: 'boolean' } } as const;

/** Starts the demo model; `settings` with its endpoint, no key and its model name. */
export async function demoConnection(
  settings: LlmSettings,
): Promise<{ server: DemoServer; settings: LlmSettings }> {
  // Its own bundle (scripts/lazy-bundles.mjs): a run against a configured model never loads it.
  const { DEMO_MODEL, startDemoServer } = await import('../demo-model/demo-server');
  const server = await startDemoServer('cli');
  return { server, settings: { ...settings, baseUrl: server.baseUrl, apiKey: '', model: DEMO_MODEL } };
}
