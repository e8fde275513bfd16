// package.json's user-facing strings are `%key%` placeholders of package.nls.json, each setting's
// description is the schema's, and every translation has every key with its links and code intact.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../../../src/core/settings';
import { localizeManifest, placeholderKey, type Json } from '../../../scripts/l10n/manifest-nls';
import { markupOf } from './markup';

const root = join(__dirname, '..', '..', '..');
const readJson = (name: string): unknown => JSON.parse(readFileSync(join(root, name), 'utf8'));
const manifest = readJson('package.json') as { [key: string]: Json };
const nls = readJson('package.nls.json') as Record<string, string>;
const descriptions = Object.fromEntries(SETTINGS.map((s) => [`logbook.${s.key}`, s.description]));
const translations = readdirSync(root).filter((f) => /^package\.nls\.[a-z-]+\.json$/.test(f));

describe('manifest localization', () => {
  it('package.json and package.nls.json are as npm run l10n:manifest writes them', () => {
    const out = localizeManifest(manifest, nls, descriptions);
    assert.deepEqual(out.manifest, manifest, 'a user-facing string of package.json is no placeholder');
    assert.deepEqual(out.nls, nls, 'package.nls.json differs from the manifest or the settings schema');
  });

  it('moves a literal into the bundle, keeps a placeholder, and takes a setting text from the schema', () => {
    const out = localizeManifest(
      {
        contributes: {
          commands: [
            { command: 'x.a', title: 'Do A', category: 'X' },
            { command: 'x.b', title: '%x.b.title%', category: 'X' },
          ],
          configuration: [
            {
              id: 'x',
              title: 'X',
              properties: {
                'x.s': { type: 'string', description: 'old', enum: ['p'], enumDescriptions: ['P'] },
              },
            },
          ],
        },
      },
      { 'x.b.title': 'Do B' },
      { 'x.s': 'new' },
    );
    assert.deepEqual(out.nls, {
      'x.a.title': 'Do A',
      category: 'X',
      'x.b.title': 'Do B',
      'configuration.x.title': 'X',
      'x.s.description': 'new',
      'x.s.enum.p': 'P',
    });
    assert.equal(JSON.stringify(out.manifest).includes('"Do A"'), false);
  });

  it('a placeholder without its text is an error, not an empty title', () => {
    assert.throws(
      () => localizeManifest({ contributes: { commands: [{ command: 'x', title: '%gone%' }] } }, {}, {}),
      /%gone%/,
    );
  });

  it('every placeholder of package.json has its English text', () => {
    const missing = [...JSON.stringify(manifest).matchAll(/"%([^%"\s]+)%"/g)]
      .map((m) => m[1]!)
      .filter((k) => nls[k] === undefined);
    assert.deepEqual(missing, []);
    assert.equal(placeholderKey('%a.b%'), 'a.b');
  });

  it('there is at least one translation', () => {
    assert.ok(translations.includes('package.nls.zh-cn.json'), translations.join(', '));
  });

  for (const file of translations) {
    it(`${file} translates every text, keeping its links, code and variables`, () => {
      const translated = readJson(file) as Record<string, string>;
      assert.deepEqual(Object.keys(translated).sort(), Object.keys(nls).sort());
      for (const [key, english] of Object.entries(nls)) {
        assert.deepEqual(markupOf(translated[key]!), markupOf(english), key);
      }
    });
  }
});
