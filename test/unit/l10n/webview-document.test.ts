// The chat's document carries the display language and the chat's words as an attribute the
// webview reads back; a word holding quotes or markup cannot break out of it.
import * as assert from 'node:assert/strict';
import { webviewDocument } from '../../../src/host/vscode/chat/webview-html';
import { readWebviewText, WEBVIEW_TEXT } from '../../../src/protocol/webview-text';

const base = { cspSource: 'vscode-resource:', asset: (n: string) => n, nonce: 'n0nce', title: 'Logbook' };

function attribute(html: string, name: string): string | undefined {
  const m = new RegExp(`${name}="([^"]*)"`).exec(html);
  return m?.[1]?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

describe('the chat document’s language and words', () => {
  it('is English without them, and carries the English words (the webview bundles none)', () => {
    const html = webviewDocument({ ...base, surface: 'sidebar' });
    assert.match(html, /<html lang="en">/);
    assert.deepEqual(readWebviewText(attribute(html, 'data-l10n')), WEBVIEW_TEXT);
  });

  it('carries the language and the words, which read back the same', () => {
    const text = { ...WEBVIEW_TEXT, confirm: '确认', reject: '"><script>alert(1)</script>' };
    const html = webviewDocument({ ...base, surface: 'editor', l10n: { lang: 'zh-cn', text } });
    assert.match(html, /<html lang="zh-cn">/);
    assert.equal(html.includes('<script>alert(1)'), false);
    assert.deepEqual(readWebviewText(attribute(html, 'data-l10n')), text);
  });
});
