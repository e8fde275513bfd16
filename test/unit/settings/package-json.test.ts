// package.json's contributes.configuration is what VS Code shows and validates; the schema is what
// both hosts read. They must name the same settings with the same types, defaults, enums, scopes
// and descriptions, so that neither can drift from the other. package.json names its texts by
// `%key%` placeholders of package.nls.json (scripts/l10n/write-package-nls.ts writes them from the
// schema), so its descriptions are read through that file.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../../../src/core/settings';
import { SETTING_CATEGORIES } from '../../../src/core/settings/categories';
import { placeholderKey } from '../../../scripts/l10n/manifest-nls';

interface Contributed {
  type: string | string[];
  default: unknown;
  enum?: string[];
  scope?: string;
  description?: string;
  markdownDescription?: string;
  order?: number;
}

interface Category {
  id: string;
  title: string;
  order: number;
  properties: Record<string, Contributed>;
}

const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: Category[] };
};
const nls = JSON.parse(readFileSync(join(__dirname, '../../../package.nls.json'), 'utf8')) as Record<
  string,
  string
>;
/** A manifest string as VS Code shows it in English: a placeholder resolved through package.nls.json. */
const shown = (value: string | undefined): string | undefined => {
  const key = placeholderKey(value);
  return key === undefined ? value : nls[key];
};
const categories = pkg.contributes.configuration;
const contributed: Record<string, Contributed> = Object.assign({}, ...categories.map((c) => c.properties));
const editorSettings = SETTINGS.filter((s) => s.hosts.includes('vscode') && !s.secret);

describe('settings schema and package.json', () => {
  it('name the same settings', () => {
    assert.deepEqual(Object.keys(contributed).sort(), editorSettings.map((s) => `logbook.${s.key}`).sort());
  });

  for (const def of editorSettings) {
    it(`logbook.${def.key}: type, default, enum, scope and description agree`, () => {
      const p = contributed[`logbook.${def.key}`];
      assert.ok(p, 'not in package.json');
      const type = def.kind.json.nullable ? [def.kind.json.type, 'null'] : def.kind.json.type;
      assert.deepEqual(p.type, type);
      assert.deepEqual(p.default, def.default);
      assert.deepEqual(p.enum, def.kind.json.enum);
      assert.equal(p.scope, def.scope);
      assert.equal(shown(p.markdownDescription ?? p.description), def.description);
      // The default passes the schema's own check.
      assert.ok(def.kind.zod.safeParse(def.default).success, 'the default is not a valid value');
    });
  }

  it('are grouped in the ordered categories, Model first, each setting in its place', () => {
    assert.deepEqual(
      categories.map((c) => [shown(c.title), c.order]),
      [
        ['Model', 1],
        ['Confirmation', 2],
        ['Sandbox', 3],
        ['Checkpoints', 4],
        ['Budget', 5],
        ['MCP', 6],
        ['Advanced', 7],
      ],
    );
    for (const [i, c] of categories.entries()) {
      const expected = SETTING_CATEGORIES[i]!;
      assert.equal(c.id, expected.id);
      const editorKeys = expected.keys.filter((k) => editorSettings.some((s) => s.key === k));
      assert.deepEqual(
        Object.keys(c.properties),
        editorKeys.map((k) => `logbook.${k}`),
        c.title,
      );
      assert.deepEqual(
        Object.values(c.properties).map((p) => p.order),
        editorKeys.map((_, j) => j),
        `${c.title}: each setting has its place (not alphabetical)`,
      );
    }
    const first = Object.keys(categories[0]!.properties).slice(0, 3);
    assert.deepEqual(first, ['logbook.model.provider', 'logbook.model.baseURL', 'logbook.model.name']);
  });

  it('every setting of the schema is in exactly one category', () => {
    const placed = SETTING_CATEGORIES.flatMap((c) => c.keys);
    assert.deepEqual([...placed].sort(), SETTINGS.map((s) => s.key).sort());
    assert.equal(new Set(placed).size, placed.length);
  });

  it('a search for "key" in the Settings editor finds how to set the API key', () => {
    // The key itself is no setting (it lives in SecretStorage): the endpoint's description says where it goes.
    const model = categories[0]!.properties;
    const says = Object.entries(model).filter(([, p]) =>
      /API key[^.]*\*\*Logbook: (Connect a Model|Set API Key)\*\*/.test(shown(p.markdownDescription) ?? ''),
    );
    assert.ok(
      says.some(([k]) => k === 'logbook.model.baseURL'),
      JSON.stringify(says.map(([k]) => k)),
    );
  });

  it('every CLI-only and secret setting has a way in (a variable or a flag)', () => {
    for (const def of SETTINGS.filter((s) => !s.hosts.includes('vscode') || s.secret)) {
      assert.ok((def.env?.length ?? 0) > 0 || def.flag, def.key);
    }
  });

  it('no two settings share a key, a variable or a flag', () => {
    const seen = new Set<string>();
    for (const def of SETTINGS) {
      for (const name of [
        `key ${def.key}`,
        ...(def.env ?? []).map((e) => `env ${e}`),
        ...(def.flag ? [`flag ${def.flag.name}`] : []),
      ]) {
        assert.ok(!seen.has(name), `${name} twice`);
        seen.add(name);
      }
    }
  });
});
