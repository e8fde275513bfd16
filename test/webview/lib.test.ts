// The webview's pure helpers, in Node: line diff, highlighter, "Always allow" prefix, formatting.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commandPrefix } from '../../webview-ui/src/lib/command-prefix';
import { lineDiff } from '../../webview-ui/src/lib/diff';
import { splitThink } from '../../webview-ui/src/lib/fields';
import { formatCost, formatTokens, statusLook } from '../../webview-ui/src/lib/format';
import { escapeHtml, highlight } from '../../webview-ui/src/lib/highlight';
import { mentionAt } from '../../webview-ui/src/lib/mention-trigger';
import { pointWords } from '../../webview-ui/src/lib/point-words';

describe('webview lib', () => {
  it('mentionAt: the word before the caret when it starts with @ or #, nothing inside words', () => {
    assert.deepEqual(mentionAt('fix @src/ap', 11), { start: 4, trigger: '@', query: 'src/ap' });
    assert.deepEqual(mentionAt('#', 1), { start: 0, trigger: '#', query: '' });
    assert.deepEqual(mentionAt('see #prob and', 9), { start: 4, trigger: '#', query: 'prob' });
    assert.equal(mentionAt('mail me@example.com', 19), undefined, 'an e-mail address is not a mention');
    assert.equal(mentionAt('issue a#1', 9), undefined);
    assert.equal(mentionAt('@done then text', 15), undefined, 'the caret left the mention');
    assert.deepEqual(mentionAt('line\n@x', 7), { start: 5, trigger: '@', query: 'x' });
  });

  it('mentionAt: a "/" that starts the message is a prompt; one anywhere else is text', () => {
    assert.deepEqual(mentionAt('/sim', 4), { start: 0, trigger: '/', query: 'sim' });
    assert.deepEqual(mentionAt('/', 1), { start: 0, trigger: '/', query: '' });
    assert.equal(mentionAt('see /etc', 8), undefined, 'a path in the text is not a prompt');
    assert.equal(mentionAt('/review then', 12), undefined, 'the caret left the command');
    assert.deepEqual(mentionAt('@/etc', 5), { start: 0, trigger: '@', query: '/etc' });
  });

  it('lineDiff: shows the change with context and folds the rest', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const d = lineDiff(before, after);
    assert.equal(d.added, 1);
    assert.equal(d.removed, 1);
    assert.deepEqual(
      d.lines.map((l) => (l.t === 'fold' ? `…${l.count}` : `${l.t}:${l.text}`)),
      ['…8', 'ctx:line 8', 'ctx:line 9', 'del:line 10', 'add:line ten', 'ctx:line 11', 'ctx:line 12', '…7'],
    );
    const del = d.lines.find((l) => l.t === 'del');
    assert.ok(del && del.t === 'del' && del.oldNo === 11);
  });

  it('lineDiff: replaying the script rebuilds both texts (property)', () => {
    const line = fc.constantFrom('a', 'b', 'c', 'd', '');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (a, b) => {
        const before = a.map((x) => `${x}\n`).join('');
        const after = b.map((x) => `${x}\n`).join('');
        const d = lineDiff(before, after, 1_000);
        if (before === after) {
          // Nothing changed: nothing to show but the folded count.
          assert.equal(d.added + d.removed, 0);
          assert.ok(d.lines.every((l) => l.t === 'fold'));
          return;
        }
        const olds = d.lines.flatMap((l) => (l.t === 'ctx' || l.t === 'del' ? [l.text] : []));
        const news = d.lines.flatMap((l) => (l.t === 'ctx' || l.t === 'add' ? [l.text] : []));
        assert.deepEqual(olds, a);
        assert.deepEqual(news, b);
      }),
    );
  });

  it('lineDiff: a huge rewrite falls back to removed-then-added without building a huge table', () => {
    const a = Array.from({ length: 3_000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 3_000 }, (_, i) => `b${i}`).join('\n');
    const t = Date.now();
    const d = lineDiff(a, b);
    assert.ok(Date.now() - t < 500);
    assert.equal(d.added + d.removed, 6_000);
  });

  it('highlight: escapes everything and marks tokens', () => {
    const html = highlight(`const x = "<b>" + 42; // done`, 'ts');
    assert.match(html, /<span class="tk-k">const<\/span>/);
    assert.match(html, /<span class="tk-s">&#34;&#60;b&#62;&#34;<\/span>/);
    assert.match(html, /<span class="tk-n">42<\/span>/);
    assert.match(html, /<span class="tk-c">\/\/ done<\/span>/);
    assert.equal(highlight('<img onerror=x>', 'unknown-lang'), '&#60;img onerror=x&#62;');
  });

  it('highlight: output never contains markup from the input (property)', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom('js', 'py', 'sh', 'json', 'css', 'html', 'diff', 'sql', 'yaml', 'c', undefined),
        (code, lang) => {
          const html = highlight(code, lang);
          const stripped = html.replace(/<span class="tk-[a-z]+">|<\/span>/g, '');
          assert.ok(!/[<>"']/.test(stripped), html);
          assert.equal(
            stripped.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))),
            code,
          );
        },
      ),
    );
    assert.equal(escapeHtml(`<a href="x">'&`), '&#60;a href=&#34;x&#34;&#62;&#39;&#38;');
  });

  it('commandPrefix: the program and its subcommand, not the changing arguments', () => {
    assert.equal(commandPrefix('npm test -- --grep math'), 'npm test');
    assert.equal(commandPrefix('git status --short'), 'git status');
    assert.equal(commandPrefix('ls -la src'), 'ls');
    assert.equal(commandPrefix('  cargo build --release && cargo test'), 'cargo build');
    assert.equal(commandPrefix('FOO=1 sudo make install'), 'make install');
    assert.equal(commandPrefix('python3 scripts/x.py'), 'python3');
    assert.equal(commandPrefix('cat README.md | head'), 'cat README.md');
    assert.equal(commandPrefix(''), '');
  });

  it('formats tokens, cost and statuses', () => {
    assert.equal(formatTokens(999), '999');
    assert.equal(formatTokens(1_155), '1.2k');
    assert.equal(formatTokens(71_474), '71k');
    assert.equal(formatTokens(2_500_000), '2.5M');
    assert.equal(formatCost(0), '$0.00');
    assert.equal(formatCost(0.0042), '$0.0042');
    assert.equal(formatCost(1.5), '$1.50');
    // Node has no document to give the chat's words (the host's page does): the word's key stands in.
    assert.equal(statusLook('waiting_for_confirmation').label, 'statusWaiting');
    assert.equal(statusLook('something_new').label, 'something new');
  });

  it('splitThink separates inline <think> blocks from the visible thought', () => {
    assert.deepEqual(splitThink('<think>plan it</think>\n\nDoing it.'), {
      visible: 'Doing it.',
      thinking: 'plan it',
    });
    assert.deepEqual(splitThink('no tags'), { visible: 'no tags', thinking: '' });
    assert.deepEqual(splitThink('<think>unclosed'), { visible: '', thinking: 'unclosed' });
  });

  it('pointWords: a message named by its first words, whitespace collapsed, cut at 48 characters', () => {
    const named = (text: string) =>
      pointWords({
        kind: 'MessageEvent',
        id: 'm',
        source: 'user',
        llm_message: { role: 'user', content: [{ type: 'text', text }] },
      });
    assert.equal(named('  fix\n\n the   tests\t'), 'fix the tests');
    assert.equal(named(`${'a'.repeat(60)} b`), `${'a'.repeat(47)}…`);
    assert.equal(named(`${'word '.repeat(10)}x`), `${'word '.repeat(10)}x`.slice(0, 47) + '…');
    assert.equal(named(`${'word '.repeat(9)}`), 'word '.repeat(9).trim(), '44 characters: not cut');
    // The same as collapsing the whole text, whatever its whitespace and length.
    const whole = (t: string) => {
      const line = t.replace(/\s+/g, ' ').trim();
      return line.length > 48 ? `${line.slice(0, 47)}…` : line;
    };
    fc.assert(
      fc.property(fc.stringMatching(/^[ a-z\n\t\u00a0]{0,200}$/), (t) => {
        const w = whole(t);
        assert.equal(named(t), w || undefined);
      }),
      { numRuns: 500 },
    );
  });
});
