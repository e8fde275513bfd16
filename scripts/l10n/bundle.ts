// The English l10n bundle (l10n/bundle.l10n.json): every message of the extension host's
// `vscode.l10n.t` calls, of the `l10n.t` calls of the core and the Node host (their words, which the
// editor passes through vscode.l10n; the CLI keeps them English), and every fixed word of the chat
// webview, each its own key.
import { WEBVIEW_TEXT } from '../../src/protocol/webview-text';
import { hostStrings } from './host-strings';

/** The folders whose `l10n.t` calls make the bundle. */
export const L10N_SOURCES = ['src/host/vscode', 'src/core', 'src/host/node'];

export function englishBundle(root: string): { bundle: Record<string, string>; problems: string[] } {
  const { strings, problems } = hostStrings(root, L10N_SOURCES);
  const all = [...new Set([...strings, ...Object.values(WEBVIEW_TEXT)])];
  return { bundle: Object.fromEntries(all.map((s) => [s, s])), problems };
}
