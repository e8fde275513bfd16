// The old keys of renamed settings: each new key is a setting of the schema and no old key is one
// any more, and the CLI's config file reads an old key as its new one (the new one winning).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileLayer, resolveSettings, SETTINGS_BY_KEY } from '../../../src/core/settings';
import { RENAMED_SETTINGS } from '../../../src/core/settings/renamed';

describe('renamed settings', () => {
  it('map each old logbook.llm.* key to a setting of the schema, and none of the old keys is one', () => {
    assert.equal(RENAMED_SETTINGS.size, 14);
    for (const [oldKey, newKey] of RENAMED_SETTINGS) {
      assert.match(oldKey, /^llm\./);
      assert.ok(SETTINGS_BY_KEY.has(newKey), `${newKey} is not a setting`);
      assert.ok(!SETTINGS_BY_KEY.has(oldKey), `${oldKey} is still a setting`);
    }
    const manifest = readFileSync(join(__dirname, '../../../package.json'), 'utf8');
    assert.doesNotMatch(manifest, /"logbook\.llm\./, 'package.json still contributes an old key');
  });

  it('an old key in the config file is read as its new one, told once; the new key wins over it', () => {
    const told: string[] = [];
    const layer = fileLayer(
      '/c.json',
      { 'llm.baseUrl': 'http://old/v1', 'llm.model': 'old', 'model.name': 'new', maxIterations: 3 },
      'cli',
      (m) => told.push(m),
    );
    const r = resolveSettings([layer], { host: 'cli' });
    assert.equal(r.get('model.baseURL')!.value, 'http://old/v1');
    assert.equal(r.get('model.name')!.value, 'new');
    assert.equal(r.get('maxIterations')!.value, 3);
    assert.deepEqual(told, [
      '/c.json: "llm.baseUrl" is now "model.baseURL"; read as "model.baseURL". Rename it in the file.',
      '/c.json: "llm.model" is the old name of "model.name", which the file also sets; "llm.model" is ignored. Remove it.',
    ]);
  });
});
