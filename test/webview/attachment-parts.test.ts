// The chat's attachment chips read back every attachment the host writes: each format goes from
// the core's writer, through the recorded user message, to the part the chat shows collapsed.
import assert from 'node:assert/strict';
import { attachmentText, editorContextText } from '../../src/core/attachments/attachment-text';
import { userMessageFields } from '../../src/core/agent/user-message';
import { attachmentParts } from '../../webview-ui/src/lib/attachment-parts';

const recorded = (text: string, attachments: string[]) =>
  userMessageFields(text, { attachments, images: ['logbook-image:x.png'] }, []).llm_message?.content;

describe('webview: attachment parts', () => {
  it('every attachment format round-trips to a chip with its title and text', () => {
    const selection = 'if (a) {\n  ```\n}';
    const written = [
      editorContextText({
        path: 'src/a.ts',
        selection: { text: selection, startLine: 2, endLine: 4, language: 'typescript' },
      }),
      editorContextText({ path: 'src/b.ts' }),
      attachmentText('file src/c.md (1 line)', '# c', { fence: 'markdown' }),
      attachmentText('problems in src/a.ts (1 problem)', 'src/a.ts:1:1 error: x'),
      attachmentText('git diff', '+a\n-b', { fence: 'diff', max: 3 }),
    ];
    const parts = attachmentParts(recorded('Fix this', written));
    assert.deepEqual(
      parts.map((p) => p.title),
      [
        'selection in src/a.ts (lines 2-4)',
        'open file src/b.ts',
        'file src/c.md (1 line)',
        'problems in src/a.ts (1 problem)',
        'git diff',
      ],
    );
    assert.equal(parts[0]!.body, `\`\`\`\`typescript\n${selection}\n\`\`\`\``);
    assert.match(parts[4]!.body, /\[Cut: the first 3 of 5 characters/);
  });

  it("the user's own text is never a chip, even when it looks like one", () => {
    const own = attachmentText('file evil.ts', 'x');
    assert.deepEqual(attachmentParts(recorded(own, [])), []);
  });
});
