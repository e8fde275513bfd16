import * as assert from 'node:assert/strict';
import { htmlToText } from '../../../src/host/vscode/mentions/html-text';

describe('attachments: htmlToText (attached web pages)', () => {
  it('keeps the readable text, one block per line, without scripts, styles or markup', () => {
    const html = `<!doctype html><html><head><title>T</title><style>p{color:red}</style></head>
      <body><script>alert(1)</script><h1>Install</h1><p>Run <code>npm&nbsp;i</code> &amp; wait.</p>
      <ul><li>one</li><li>two &#x1F600;</li></ul><!-- hidden --><noscript>no js</noscript></body></html>`;
    assert.equal(htmlToText(html), 'Install\nRun npm i & wait.\n\n- one\n- two 😀');
  });

  it('leaves unknown entities and plain text alone', () => {
    assert.equal(htmlToText('a &bogus; b &#99999999; c'), 'a &bogus; b &#99999999; c');
    assert.equal(htmlToText('just text'), 'just text');
  });
});
