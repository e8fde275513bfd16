import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));
}

function relativeLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/i.test(l));
}

describe('README and docs links', () => {
  const pages = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
    f.endsWith('.md'),
  );

  it('the README stays short and links a docs page from its feature table', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length <= 160, 'README.md should read in five minutes');
    for (const page of ['USING', 'SECURITY', 'MODELS', 'MCP', 'CLI', 'SETTINGS']) {
      assert.match(readme, new RegExp(`\\(docs/${page}\\.md[#)]`), `README.md links docs/${page}.md`);
    }
  });

  it('every relative link points at a file and heading that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const link of relativeLinks(join(root, page))) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path ? join(dirname(join(root, page)), path) : join(root, page);
        if (!existsSync(target)) {
          broken.push(`${page}: ${link} (no such file)`);
          continue;
        }
        if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) {
          broken.push(`${page}: ${link} (no such heading)`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
