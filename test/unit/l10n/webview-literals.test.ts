// The chat's words come from the host's dictionary (src/protocol/webview-text.ts), so a language
// pack translates all of them: no English may be written straight into what the webview renders.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findLiterals } from './webview-literals';

const root = join(__dirname, '..', '..', '..');
const webviewSrc = join(root, 'webview-ui', 'src');

/**
 * Words that stay as they are in every language, each with its reason. Keyed by file and text so
 * an entry never excuses the same words elsewhere.
 */
const ALLOWED: Record<string, string> = {
  // The product's name, the editor tab's title when no conversation is open.
  'components/Header.tsx|Logbook': 'product name',
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('the chat’s words all come from the dictionary', () => {
  it('no English literal is rendered by webview-ui/src', () => {
    const found: string[] = [];
    const used = new Set<string>();
    for (const file of sources(webviewSrc)) {
      const rel = relative(webviewSrc, file).replace(/\\/g, '/');
      for (const l of findLiterals(readFileSync(file, 'utf8'), file)) {
        const key = `${rel}|${l.text}`;
        if (key in ALLOWED) used.add(key);
        else found.push(`${rel}:${l.line}: ${l.text}`);
      }
    }
    assert.deepEqual(found, [], 'put these words in WEBVIEW_TEXT and render them with t()');
    assert.deepEqual(
      Object.keys(ALLOWED).filter((k) => !used.has(k)),
      [],
      'an allowed literal that is gone: drop it from the list',
    );
  });

  it('finds the literals it is meant to find', () => {
    const source = `
      const LOOK = { done: { icon: 'pass', label: 'done' } };
      const line = { icon: 'sync', text: \`Status: \${x}\`, tone: 'neutral' };
      export function Card({ n, open }: { n: number; open: boolean }) {
        return (
          <div title="Awaiting approval" aria-label={\`Step \${n} title\`} class="card-head">
            <span>Exit code {n}</span>
            <input placeholder={open ? 'e.g. Run the tests' : t('other')} />
            <Icon name="chevron-down" />
            {open ? 'Show less' : t('showAll', n)}
            {open && 'Thinking'}
            <IconButton text="Fork" label={t('forkTitle')} />
          </div>
        );
      }`;
    assert.deepEqual(
      findLiterals(source).map((l) => l.text),
      [
        'done',
        'Status:',
        'Awaiting approval',
        'Step title',
        'Exit code',
        'e.g. Run the tests',
        'Show less',
        'Thinking',
        'Fork',
      ],
    );
  });

  it('passes words taken from the dictionary, data, class names, icons and symbols', () => {
    const source = `
      export function Row({ path, n }: { path: string; n: number }) {
        return (
          <div class="file-line" title={path} aria-label={t('openDiffOf', path)}>
            <Icon name="diff" />
            <span class="sign">{n > 0 ? '+' : '−'}</span>
            {path} · {tn(n, 'linesOne', 'linesMany')}
            {send({ type: 'openDiff' })}
          </div>
        );
      }`;
    assert.deepEqual(findLiterals(source), []);
  });
});
