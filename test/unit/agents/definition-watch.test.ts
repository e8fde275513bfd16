// The watch of agent definitions: a file written between actions is the user's; one written while an
// action runs is held, listed and not offered, until accepted as it is; the held list is checked.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAgents } from '../../../src/host/node/agents/agent-files';
import { DefinitionWatch, heldHere } from '../../../src/host/node/agents/definition-watch';
import {
  acceptHeldDefinition,
  heldDefinitionsPath,
  readHeldDefinitions,
} from '../../../src/host/node/agents/held-definitions';

const def = (name: string, mode = 'act') =>
  `---\nname: ${name}\ndescription: ${name}.\ntools: [think]\nmode: ${mode}\n---\nGo.\n`;

describe('agent definitions written while an action runs', () => {
  let root: string;
  let ws: string;
  let env: Record<string, string>;
  const dir = () => join(ws, '.logbook', 'agents');
  const names = () => loadAgents({ workspace: ws, env, trusted: true }).agents.map((a) => a.name);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-watch-'));
    ws = join(root, 'ws');
    env = { XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') };
    mkdirSync(dir(), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('takes what is there at the start and between actions as the user’s', () => {
    writeFileSync(join(dir(), 'before.md'), def('before'));
    const watch = new DefinitionWatch({ workspace: ws, env, trusted: true });
    writeFileSync(join(dir(), 'between.md'), def('between'));
    watch.refresh(); // an action starts
    assert.deepEqual(watch.check(), []);
    assert.deepEqual(names(), ['before', 'between', 'explore']);
  });

  it('holds a file created or changed during an action, by path, until it is accepted as shown', () => {
    writeFileSync(join(dir(), 'old.md'), def('old', 'plan'));
    const watch = new DefinitionWatch({ workspace: ws, env, trusted: true });
    watch.refresh();
    writeFileSync(join(dir(), 'helper.md'), def('helper'));
    writeFileSync(join(dir(), 'old.md'), def('old', 'act'));
    const held = watch.check();
    assert.deepEqual(held.map((h) => h.name).sort(), ['helper', 'old']);
    assert.deepEqual(names(), ['explore']);
    assert.deepEqual(
      loadAgents({ workspace: ws, env, trusted: true })
        .held.map((h) => h.name)
        .sort(),
      ['helper', 'old'],
    );
    assert.equal(watch.held('helper')?.origin, join(dir(), 'helper.md'));
    // What each held before, so the change can be shown: nothing for a new file.
    assert.equal(watch.contentBefore(join(dir(), 'helper.md')), null);
    assert.equal(watch.contentBefore(join(dir(), 'old.md')), def('old', 'plan'));
    assert.equal(watch.held('nobody'), null);

    // A later change still needs an acceptance: the path is held, not one content.
    writeFileSync(join(dir(), 'helper.md'), def('helper', 'plan'));
    assert.deepEqual(names(), ['explore']);
    const shown = heldHere(env, ws).find((h) => h.name === 'helper')!;
    assert.throws(
      () => acceptHeldDefinition(env, shown.origin, shown.fingerprint),
      /changed since it was shown/,
    );
    const now = new DefinitionWatch({ workspace: ws, env, trusted: true });
    now.check();
    acceptHeldDefinition(env, shown.origin);
    assert.deepEqual(names(), ['explore', 'helper']);
    assert.deepEqual([...readHeldDefinitions(env).keys()], [join(dir(), 'old.md')]);
  });

  it('a held list that is not one is an error, never an empty list', () => {
    mkdirSync(join(root, 'config', 'logbook'), { recursive: true });
    writeFileSync(heldDefinitionsPath(env), '{"held": "nothing"}');
    assert.throws(() => names(), /is not Logbook's list of held agent definitions/);
  });
});
