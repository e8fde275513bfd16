import * as assert from 'node:assert/strict';
import { ATTACHMENT_HEADER, attachmentText } from '../../../src/core/attachments/attachment-text';

describe('attachments: attachmentText', () => {
  it('starts with a header that names the attachment, then the fenced body', () => {
    const t = attachmentText('file src/a.ts (2 lines)', 'const a = 1;\nexport { a };', { fence: 'ts' });
    assert.equal(t, '--- Attached file src/a.ts (2 lines) ---\n```ts\nconst a = 1;\nexport { a };\n```');
    assert.equal(ATTACHMENT_HEADER.exec(t)?.[1], 'file src/a.ts (2 lines)');
  });

  it('uses a fence the body cannot close, and keeps a header on one line', () => {
    const t = attachmentText('file x.md\nline two', 'before\n````\nafter', { fence: '' });
    assert.ok(t.startsWith('--- Attached file x.md line two ---\n`````\n'), t);
  });

  it('cuts a large body with a note that says how much was shown', () => {
    const body = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const t = attachmentText('output', body, { max: 1000 });
    assert.ok(t.length < 1200);
    assert.match(t, /\[Cut: the first 996 of 18,889 characters are shown; the rest was left out\.\]$/);
    assert.equal(t.split('\n').at(-2), 'line 122', 'the last line shown is whole');
  });
});
