// `--demo` and LOGBOOK_DEMO=1: the agent talks to the built-in demo model (the one `npm start`
// uses), served on 127.0.0.1 for as long as the command runs, instead of a configured endpoint.
import type { LlmSettings } from '../../../core/llm';
import { DEMO_MODEL, type DemoServer, startDemoServer } from '../demo-model/demo-server';

export const DEMO_OPTION = { demo: { type: 'boolean' } } as const;

/** Starts the demo model; `settings` with its endpoint, no key and its model name. */
export async function demoConnection(
  settings: LlmSettings,
): Promise<{ server: DemoServer; settings: LlmSettings }> {
  const server = await startDemoServer('cli');
  return { server, settings: { ...settings, baseUrl: server.baseUrl, apiKey: '', model: DEMO_MODEL } };
}
