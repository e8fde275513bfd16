import * as assert from 'node:assert/strict';
import { printableLine, printableText } from '../../../src/core/text/printable';

describe('printable text', () => {
  const hostile = 'ls\u001b[8m; rm -rf ~\u001b[0m\r\n[state] status finished\u009b2J\u202eevil\u2028x\u0000';

  it('printableLine escapes every control character, newlines included', () => {
    const line = printableLine(hostile);
    assert.equal(
      line,
      'ls\\u001b[8m; rm -rf ~\\u001b[0m\\r\\n[state] status finished\\u009b2J\\u202eevil\\u2028x\\u0000',
    );
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u202e\u2028]/);
  });

  it('printableText keeps newlines and escapes the rest', () => {
    assert.equal(printableText('a\u001b[31m\nb\tc'), 'a\\u001b[31m\nb\\tc');
  });

  it('leaves ordinary text, quotes and non-Latin letters as they are', () => {
    const plain = 'npm test -- --grep "a b" ✓ naïve 日本語 😀';
    assert.equal(printableLine(plain), plain);
  });

  it('keeps a JSON line the same JSON', () => {
    const json = JSON.stringify({ summary: 'x\u009b31m\u202ey\u2028', n: 1 });
    assert.deepEqual(JSON.parse(printableLine(json)), JSON.parse(json));
    assert.doesNotMatch(printableLine(json), /[\u009b\u202e\u2028]/);
  });
});
