// How a configured endpoint is told to be the demo model, apart from the demo's server and scripts,
// so the editor can ask it at activation without loading the demo (which loads only when used).
export const DEMO_MODEL = 'demo';

/** Whether an endpoint is this demo model: the model named `demo`, served on this machine. */
export function isDemoEndpoint(baseUrl: string, model: string): boolean {
  if (model !== DEMO_MODEL) return false;
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}
