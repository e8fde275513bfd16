// The page conversion on its own, and the WebPort's checks before the confirmation.
import * as assert from 'node:assert/strict';
import { NodeWebPort } from '../../../src/host/node/web/node-web-port';
import { MAX_HTML_CHARS, pageMarkdown } from '../../../src/host/node/web/page-markdown';
import { CLOSED } from './local-web';

describe('page Markdown', () => {
  it('keeps a short page whole when the reader view finds no article, links made absolute', () => {
    const { title, markdown } = pageMarkdown(
      '<html><head><title>Tiny</title><base href="https://cdn.example/base/"></head><body>' +
        '<h2>Menu</h2><ol><li><a href="a.html">A</a></li><li><a href="javascript:steal()">B</a></li></ol>' +
        '<img src="logo.png" alt="Logo"><style>.x{}</style></body></html>',
      'https://site.example/page',
    );
    assert.equal(title, 'Tiny');
    assert.match(markdown, /^## Menu$/m);
    assert.match(markdown, /^1\. +\[A\]\(https:\/\/cdn\.example\/base\/a\.html\)$/m);
    assert.match(markdown, /^2\. +B$/m);
    assert.doesNotMatch(markdown, /javascript|\.x\{\}/);
    assert.match(markdown, /!\[Logo\]\(https:\/\/cdn\.example\/base\/logo\.png\)/);
  });

  it('fences code that holds backticks with a longer fence', () => {
    const { markdown } = pageMarkdown(
      '<html><body><pre class="lang-md">Use ```js fences``` here</pre></body></html>',
      'https://site.example/',
    );
    assert.match(markdown, /^````md\nUse ```js fences``` here\n````$/m);
  });

  it('converts at most MAX_HTML_CHARS of markup, counted after scripts and styles are gone', () => {
    const script = `<script>${'var x = 1;'.repeat(200_000)}</script><style>${'a{}'.repeat(100_000)}</style>`;
    const small = pageMarkdown(
      `<html><body>${script}<main><p>Kept</p></main></body></html>`,
      'https://a.example/',
    );
    assert.equal(small.cut, false);
    assert.equal(small.markdown, 'Kept');
    const big = pageMarkdown(
      `<html><body><main><p>${'word '.repeat(MAX_HTML_CHARS / 5)}</p><p>The end</p></main></body></html>`,
      'https://a.example/',
    );
    assert.equal(big.cut, true);
    assert.doesNotMatch(big.markdown, /The end/);
  });
});

describe('web port checks', () => {
  it('refuses a name that does not resolve in time, before anything is asked', async () => {
    const port = new NodeWebPort({
      rules: () => CLOSED,
      lookup: () => new Promise(() => undefined),
      checkTimeoutMs: 100,
    });
    const target = await port.check('https://slow.example/x');
    assert.deepEqual(target, {
      ok: false,
      url: 'https://slow.example/x',
      reason: 'slow.example could not be resolved within 0.1 s',
    });
  });
});
