// Every message the extension shows through vscode.l10n.t, and every fixed word of the chat, is in
// l10n/bundle.l10n.json; each translation has them all, with their holes, links and icons intact.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { englishBundle } from '../../../scripts/l10n/bundle';
import { hostStrings } from '../../../scripts/l10n/host-strings';
import { fillText, readWebviewText, WEBVIEW_TEXT } from '../../../src/protocol/webview-text';
import { markupOf } from './markup';

const root = join(__dirname, '..', '..', '..');
const l10nDir = join(root, 'l10n');
const readJson = (file: string): Record<string, string> =>
  JSON.parse(readFileSync(join(l10nDir, file), 'utf8')) as Record<string, string>;
const translations = readdirSync(l10nDir).filter((f) => /^bundle\.l10n\.[a-z-]+\.json$/.test(f));

describe('l10n bundle', () => {
  const expected = englishBundle(root);

  it('every vscode.l10n.t message is a literal the bundle can hold', () => {
    assert.deepEqual(expected.problems, []);
    assert.ok(Object.keys(expected.bundle).length > 100, 'the host has its messages wrapped');
  });

  it('l10n/bundle.l10n.json holds every message and word, and nothing else (npm run l10n:bundle)', () => {
    const written = readJson('bundle.l10n.json');
    const missing = Object.keys(expected.bundle).filter((k) => !(k in written));
    const stale = Object.keys(written).filter((k) => !(k in expected.bundle));
    assert.deepEqual({ missing, stale }, { missing: [], stale: [] });
  });

  it('finds literal messages and reports computed ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'logbook-l10n-'));
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(
        join(dir, 'src', 'a.ts'),
        "vscode.l10n.t('Hello {0}', name);\nl10n.t(`Plain`);\nconst m = 'x';\nvscode.l10n.t(m);\nfoo.t('not this');\n",
      );
      const found = hostStrings(dir, ['src']);
      assert.deepEqual(found.strings, ['Hello {0}', 'Plain']);
      assert.deepEqual(found.problems, ['src/a.ts:4: the message of l10n.t is not a literal']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('there is at least one translation', () => {
    assert.ok(translations.includes('bundle.l10n.zh-cn.json'), translations.join(', '));
  });

  for (const file of translations) {
    it(`${file} translates every message, keeping its holes, links and icons`, () => {
      const translated = readJson(file);
      const english = Object.keys(expected.bundle);
      assert.deepEqual(Object.keys(translated).sort(), [...english].sort());
      for (const key of english) {
        assert.ok(translated[key]?.trim(), `${key}: empty`);
        assert.deepEqual(markupOf(translated[key]!), markupOf(key), key);
      }
    });
  }
});

describe('the chat’s words in the document', () => {
  it('takes the given words and leaves out empty, odd or unreadable ones', () => {
    const text = readWebviewText(JSON.stringify({ confirm: '确认', reject: '', send: 3 }));
    assert.equal(text.confirm, '确认');
    assert.equal('reject' in text, false);
    assert.equal('send' in text, false);
    assert.deepEqual(readWebviewText(JSON.stringify({ ...WEBVIEW_TEXT })), { ...WEBVIEW_TEXT });
    assert.deepEqual(readWebviewText('{not json'), {});
    assert.deepEqual(readWebviewText('["a"]'), {});
    assert.deepEqual(readWebviewText(undefined), {});
  });

  it('fills numbered holes in the translation’s order', () => {
    assert.equal(fillText('{1} 的 {0}', 'a', 'b'), 'b 的 a');
    assert.equal(fillText('Allow these {0} actions?', 3), 'Allow these 3 actions?');
    assert.equal(fillText('{2} stays', 'a'), '{2} stays');
  });
});
