// A replay's copy holds what the recorded workspace holds: a definition held there (written while a
// conversation ran) is not offered in the copy, where it lies at the same place.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefinitionWatch } from '../../../src/host/node/agents/definition-watch';
import { replayAgents } from '../../../src/host/node/replay/replay-agents';

const def = (name: string) => `---\nname: ${name}\ndescription: ${name}.\ntools: [think]\n---\nGo.\n`;

describe('replay: held agent definitions', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('leaves out of the copy the definitions held in the recorded workspace', () => {
    root = mkdtempSync(join(tmpdir(), 'logbook-replay-held-'));
    const env = { XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') };
    const recorded = join(root, 'ws');
    const copy = join(root, 'copy', 'workspace');
    for (const ws of [recorded, copy]) {
      mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
      writeFileSync(join(ws, '.logbook', 'agents', 'kept.md'), def('kept'));
    }
    const watch = new DefinitionWatch({ workspace: recorded, env, trusted: true });
    writeFileSync(join(recorded, '.logbook', 'agents', 'helper.md'), def('helper'));
    assert.equal(watch.check().length, 1);
    writeFileSync(join(copy, '.logbook', 'agents', 'helper.md'), def('helper'));
    assert.deepEqual(
      replayAgents(copy, recorded, env).map((a) => a.name),
      ['explore', 'kept'],
    );
  });
});
