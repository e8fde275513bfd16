// package.json's contributes.configuration is what VS Code shows and validates; the schema is what
// both hosts read. They must name the same settings with the same types, defaults, enums, scopes
// and descriptions, so that neither can drift from the other.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../../../src/core/settings';

interface Contributed {
  type: string | string[];
  default: unknown;
  enum?: string[];
  scope?: string;
  description?: string;
  markdownDescription?: string;
}

const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Contributed> } };
};
const contributed = pkg.contributes.configuration.properties;
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
      assert.equal(p.markdownDescription ?? p.description, def.description);
      // The default passes the schema's own check.
      assert.ok(def.kind.zod.safeParse(def.default).success, 'the default is not a valid value');
    });
  }

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
