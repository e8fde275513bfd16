import * as assert from 'node:assert/strict';
import {
  ATTACHMENT_HEADER,
  attachmentText,
  editorContextText,
  MAX_ATTACHMENT_CHARS,
} from '../../../src/core/attachments/attachment-text';

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

describe('attachments: editorContextText (the composer toggles and the start-task command)', () => {
  it('a selection is fenced with its language and names its lines', () => {
    const t = editorContextText({
      path: 'src/a.ts',
      selection: { text: 'const a = 1;\nconst b = 2;', startLine: 3, endLine: 4, language: 'typescript' },
    });
    assert.equal(
      t,
      '--- Attached selection in src/a.ts (lines 3-4) ---\n```typescript\nconst a = 1;\nconst b = 2;\n```',
    );
  });

  it('a selection holding a fence cannot close the one around it', () => {
    const text = 'before\n```\n# outside?\n``````\nafter';
    const t = editorContextText({ path: 'README.md', selection: { text, startLine: 1, endLine: 5 } });
    const fence = t.split('\n')[1]!;
    assert.equal(fence, '```````', 'one backtick longer than the longest run inside');
    assert.equal(t.split('\n').filter((l) => l.startsWith(fence)).length, 2, 'only its own two fence lines');
    assert.ok(t.endsWith(`after\n${fence}`));
  });

  it('a large selection is capped with a note', () => {
    const text = 'x'.repeat(MAX_ATTACHMENT_CHARS + 10);
    const t = editorContextText({ path: 'big.txt', selection: { text, startLine: 1, endLine: 1 } });
    assert.ok(t.length < MAX_ATTACHMENT_CHARS + 300, String(t.length));
    assert.match(t, /\[Cut: the first 50,000 of 50,010 characters are shown; the rest was left out\.\]$/);
  });

  it('without a selection it names the open file, in the same header format', () => {
    const t = editorContextText({ path: 'src/billing.js' });
    assert.equal(ATTACHMENT_HEADER.exec(t)?.[1], 'open file src/billing.js');
  });
});
