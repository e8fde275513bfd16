// The one handle the webview has on the extension: validated messages out, state for resync.
import type { WebviewMessage } from '../../src/protocol/messages';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(msg: WebviewMessage): void {
  api.postMessage(msg);
}
