// The webview's one handle on the extension: intents out (checked against the protocol before they
// leave, so a bug here shows up in the console rather than as a refused message) and saved state.
import { parseWebviewMessage, type WebviewMessage } from '../../src/protocol/messages';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(msg: WebviewMessage): void {
  const checked = parseWebviewMessage(msg);
  if (!checked.ok) {
    console.error('Logbook: not sending an invalid message', checked.error);
    return;
  }
  api.postMessage(checked.value);
}

export function loadState(): unknown {
  return api.getState();
}

export function saveState(state: unknown): void {
  api.setState(state);
}
