// A replay runs commands in the kind of shell the recording used, and a startup file's chatter at
// the start of a recorded command's output is not a divergence; anything else still is.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CallOutcome,
  firstDivergence,
  type Normaliser,
} from '../../../src/core/agent/replay-divergence';
import { createEvent, type CreateFields, type Event } from '../../../src/core/events';
import { deriveState, SHELL_KEY } from '../../../src/core/state';
import { NodeTerminalPort } from '../../../src/host/node/ports';

const DONE = '[The command completed with exit code 0.]';
const CHATTER = "pyenv: cannot rehash: /home/u/.pyenv/shims isn't writable";

function call(tool: string, recorded: string, replayed: string): CallOutcome {
  return { callId: 'c1', tool, action: undefined, index: 3, recorded, replayed };
}

describe('replay: the shell of the recording', () => {
  const n: Normaliser = { folders: [], shellStartup: `bash: no job control in this shell\n${CHATTER}\n` };

  it('does not report a startup file’s chatter at the start of a command’s output', () => {
    const calls = [call('terminal', `${CHATTER}\nhello\n${DONE}`, `hello\n${DONE}`)];
    assert.equal(firstDivergence(calls, n), undefined);
    // Without the replay shell's startup output, it is a divergence (as before).
    assert.equal(firstDivergence(calls, { folders: [] })?.diff.join('\n'), `- ${CHATTER}`);
    // A command whose output was only the chatter printed nothing when replayed.
    assert.equal(
      firstDivergence([call('terminal', `${CHATTER}\n${DONE}`, `(no output)\n${DONE}`)], n),
      undefined,
    );
  });

  it('still reports real divergences, and chatter anywhere but the start', () => {
    const changed = firstDivergence([call('terminal', `${CHATTER}\nhello\n${DONE}`, `bye\n${DONE}`)], n);
    assert.deepEqual(changed?.diff, ['- hello', '+ bye']);
    const inTheMiddle = firstDivergence(
      [call('terminal', `hello\n${CHATTER}\n${DONE}`, `hello\n${DONE}`)],
      n,
    );
    assert.deepEqual(inTheMiddle?.diff, [`- ${CHATTER}`]);
    // Only a terminal's output begins with what its shell printed: a file read is compared whole.
    const file = firstDivergence([call('file_editor', `${CHATTER}\nhello`, 'hello')], n);
    assert.ok(file);
    // A line the shell did not print at its start is compared.
    const other = firstDivergence([call('terminal', `warning: other\nhello\n${DONE}`, `hello\n${DONE}`)], n);
    assert.deepEqual(other?.diff, ['- warning: other']);
  });

  it('the log says which kind of shell ran the commands; a bad value is a warning', () => {
    const update = (value: unknown) =>
      createEvent('ConversationStateUpdateEvent', {
        key: SHELL_KEY,
        value,
      } as CreateFields<'ConversationStateUpdateEvent'>) as Event;
    assert.equal(deriveState([]).shell, null);
    assert.deepEqual(deriveState([update({ startup: 'user' })]).shell, { startup: 'user' });
    const bad = deriveState([update({ startup: 'zsh' })]);
    assert.equal(bad.shell, null);
    assert.ok(
      bad.warnings.some((w) => /shell update/.test(w)),
      bad.warnings.join('\n'),
    );
  });

  describe('NodeTerminalPort startup', function () {
    this.timeout(20_000);
    let home: string;
    let port: NodeTerminalPort | undefined;
    beforeEach(() => {
      home = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-home-')));
      mkdirSync(join(home, 'ws'));
      writeFileSync(
        join(home, '.bashrc'),
        `export RC_GREETING=from-rc\necho "${CHATTER}" >&2\necho "rc says hi"\n`,
      );
    });
    afterEach(() => {
      port?.dispose();
      port = undefined;
      rmSync(home, { recursive: true, force: true });
    });

    it('user: reads the user’s startup file, whose chatter stays out of the command’s output', async () => {
      port = new NodeTerminalPort({ cwd: join(home, 'ws'), env: { HOME: home }, startup: 'user' });
      const r = await port.run('echo "[$RC_GREETING]"', { timeoutMs: 10_000 });
      assert.equal(r.output.trim(), '[from-rc]');
      assert.match(port.startupOutput, new RegExp(CHATTER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.match(port.startupOutput, /rc says hi/);
    });

    it('none (the default): a plain shell that reads no startup file', async () => {
      port = new NodeTerminalPort({ cwd: join(home, 'ws'), env: { HOME: home } });
      const r = await port.run('echo "[$RC_GREETING]"', { timeoutMs: 10_000 });
      assert.equal(r.output.trim(), '[]');
      assert.doesNotMatch(port.startupOutput, /rc says hi|pyenv/);
    });
  });
});
