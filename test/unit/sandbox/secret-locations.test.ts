// The hidden locations are made once and kept while what they are made from stays the same (a run
// asks for them at every decision and launch): a change of any input must still show at once, and
// a caller that changes its copy must not change the next caller's.
import assert from 'node:assert/strict';
import path from 'node:path';
import { secretLocations } from '../../../src/host/node/sandbox/secret-locations';

describe('secretLocations', () => {
  const home = path.resolve('/home/someone');

  it('follows each input that moves a hidden place, from one call to the next', () => {
    const plain = secretLocations({ home });
    assert.ok(plain.includes(path.join(home, '.ssh')));
    assert.ok(!plain.includes(path.resolve('/xdg/config/logbook')));

    const moved = secretLocations({ home, configHome: path.resolve('/xdg/config') });
    assert.ok(moved.includes(path.resolve('/xdg/config/logbook')));
    assert.ok(moved.includes(path.resolve('/xdg/config/git/credentials')));

    const denied = secretLocations({ home, extra: ['~/private'] });
    assert.ok(denied.includes(path.join(home, 'private')));
    assert.ok(!denied.includes(path.resolve('/xdg/config/logbook')));

    const other = path.resolve('/home/other');
    const elsewhere = secretLocations({ home: other, own: [path.resolve('/keys/signing.pem')] });
    assert.ok(elsewhere.includes(path.join(other, '.ssh')));
    assert.ok(!elsewhere.includes(path.join(home, '.ssh')));
    assert.ok(elsewhere.includes(path.resolve('/keys/signing.pem')));

    assert.deepEqual(secretLocations({ home }), plain);
  });

  it('gives each caller its own list', () => {
    const first = secretLocations({ home });
    const count = first.length;
    first.length = 0;
    first.push('/nowhere');
    const second = secretLocations({ home });
    assert.equal(second.length, count);
    assert.ok(!second.includes('/nowhere'));
    assert.ok(second.includes(path.join(home, '.ssh')));
  });
});
