// The file tools' rule for what the sandbox hides: judged where a path really leads (also where a
// hidden place itself is a symlink), Logbook's readable folders inside one readable only, and the
// rating that tells the gate not to ask about a call the tool will refuse.
import assert from 'node:assert/strict';
import { analyzeAction } from '../../../src/core/security';
import { hiddenCheck, hiddenReason, type HiddenPaths } from '../../../src/core/security/hidden-paths';
import type { PathLookup } from '../../../src/core/security/resolve-path';

/** A file system of symlinks only: everything else is a folder or missing. */
function links(map: Record<string, string>): PathLookup {
  return {
    kind: (p) => (p in map ? 'symlink' : 'directory'),
    readlink: (p) => map[p]!,
  };
}

const HIDDEN: HiddenPaths = {
  locations: () => ['/home/u/.ssh', '/home/u/.config/logbook', '/home/u/.local/state/logbook'],
  readable: () => ['/home/u/.local/state/logbook/conv/scratch'],
};

describe('hidden paths', () => {
  it('refuses a path in a hidden place for reading and writing, naming the place', () => {
    for (const reading of [true, false]) {
      const why = hiddenReason(
        '/home/u/.ssh/id_ed25519',
        '/home/u/.ssh/id_ed25519',
        HIDDEN,
        reading,
        links({}),
      );
      assert.match(why ?? '', /hidden from the agent like from its commands: it lies in \/home\/u\/\.ssh/);
    }
    assert.ok(hiddenReason('/home/u/.ssh', '/home/u/.ssh', HIDDEN, true, links({})), 'the place itself');
  });

  it('leaves alone what only looks like a hidden place (a .ssh folder elsewhere, a longer name)', () => {
    const check = hiddenCheck(HIDDEN, true, links({}));
    assert.equal(check('x', '/work/project/.ssh/notes'), undefined);
    assert.equal(check('x', '/home/u/.sshd/config'), undefined);
    assert.equal(check('x', '/home/u/.config/logbook-other/x'), undefined);
  });

  it('follows a hidden place that is itself a symlink', () => {
    const lookup = links({ '/home/u/.ssh': '/data/keys' });
    assert.ok(hiddenCheck(HIDDEN, true, lookup)('keys/id', '/data/keys/id'));
  });

  it("reads, but never writes, Logbook's readable folder inside a hidden place", () => {
    const scratch = '/home/u/.local/state/logbook/conv/scratch/output-1.txt';
    assert.equal(hiddenReason(scratch, scratch, HIDDEN, true, links({})), undefined);
    assert.ok(hiddenReason(scratch, scratch, HIDDEN, false, links({})));
    const beside = '/home/u/.local/state/logbook/conv/events.log';
    assert.ok(hiddenReason(beside, beside, HIDDEN, true, links({})));
  });

  it('without a list nothing is hidden', () => {
    assert.equal(hiddenReason('/home/u/.ssh/id', '/home/u/.ssh/id', undefined, true), undefined);
  });

  it('rates a file tool call into a hidden place as refused, so no one is asked', () => {
    const hiddenRoots = HIDDEN.locations();
    for (const [tool, args] of [
      ['file_editor', { command: 'view', path: '/home/u/.ssh/id_ed25519' }],
      ['file_editor', { command: 'create', path: '/home/u/.config/logbook/config.json', file_text: '{}' }],
      ['grep', { pattern: 'x', path: '/home/u/.ssh' }],
      ['glob', { pattern: '*', path: '/home/u/.ssh' }],
    ] as const) {
      const rated = analyzeAction(tool, { ...args, security_risk: 'LOW' }, ['/work/project'], {
        writableRoots: ['/home/u'],
        hiddenRoots,
      });
      assert.equal(rated.risk, 'LOW', `${tool} ${JSON.stringify(rated)}`);
      assert.match(rated.reasons.join(' '), /refused without touching anything: .*hidden from the agent/);
    }
    // Without the list, the same write into a writable folder is rated as before.
    const before = analyzeAction(
      'file_editor',
      {
        command: 'create',
        path: '/home/u/.config/logbook/config.json',
        file_text: '{}',
        security_risk: 'LOW',
      },
      ['/work/project'],
      { writableRoots: ['/home/u'] },
    );
    assert.doesNotMatch(before.reasons.join(' '), /hidden from the agent/);
  });
});
