// docs/SETTINGS.md is generated from the schema (npm run docs:settings): it must be current.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { SETTINGS } from '../../../src/core/settings';
import { settingsReference } from '../../../src/core/settings/reference';

const file = join(__dirname, '../../../docs/SETTINGS.md');

describe('docs/SETTINGS.md', () => {
  it('is what the schema generates (run npm run docs:settings after changing a setting)', async () => {
    const options = (await prettier.resolveConfig(file)) ?? {};
    const expected = await prettier.format(settingsReference(), { ...options, filepath: file });
    assert.equal(readFileSync(file, 'utf8'), expected);
  });

  it('has a section for every setting, with its variables and flag', () => {
    const doc = readFileSync(file, 'utf8');
    for (const def of SETTINGS) {
      const at = doc.indexOf(`\n### ${def.key}\n`);
      assert.ok(at > 0, def.key);
      const section = doc.slice(at, doc.indexOf('\n##', at + 1) >>> 0);
      for (const name of def.env ?? []) assert.ok(section.includes(`\`${name}\``), `${def.key}: ${name}`);
      if (def.flag) assert.ok(section.includes(`\`--${def.flag.name}\``), `${def.key}: --${def.flag.name}`);
    }
  });

  it('comes in the categories of the Settings editor, Model first with the endpoint and model at its top', () => {
    const doc = readFileSync(file, 'utf8');
    const headings = [...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings, [
      'Model',
      'Confirmation',
      'Sandbox',
      'Checkpoints',
      'Budget',
      'MCP',
      'Advanced',
    ]);
    const model = doc.slice(doc.indexOf('\n## Model\n'), doc.indexOf('\n## Confirmation\n'));
    const keys = [...model.matchAll(/^\| \[`([\w.]+)`\]/gm)].map((m) => m[1]);
    assert.deepEqual(keys.slice(0, 3), ['model.provider', 'model.baseURL', 'model.name']);
  });
});
