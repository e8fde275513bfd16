// A conversation is handed from the window that writes it to the one that asked, on real folders
// and real processes: the writer lets go only when no step runs, answers only a live asker of this
// host (never itself), and a request whose asker is gone is dropped.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clearHandoff,
  HANDOFF_FILE,
  HandoffWatch,
  pendingHandoff,
  requestHandoff,
  type HandoffRequest,
} from '../../../src/host/vscode/handoff/handoff';

function plant(dir: string, pid: number, host = hostname()): void {
  writeFileSync(
    join(dir, HANDOFF_FILE),
    JSON.stringify({ pid, hostname: host, holder: 'the other window', at: '' }),
  );
}

describe('handing a conversation over to another window', () => {
  let dir: string;
  let other: ChildProcess;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'handoff-'));
    other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  });
  afterEach(() => {
    other.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a request of another live process of this host', () => {
    plant(dir, other.pid!);
    assert.equal(pendingHandoff(dir)?.holder, 'the other window');
    clearHandoff(dir);
    assert.equal(pendingHandoff(dir), undefined);
  });

  it("ignores its own request, another host's, and a garbled one; drops one whose asker is gone", async () => {
    requestHandoff(dir, 'this window');
    assert.equal(pendingHandoff(dir), undefined, 'its own');
    plant(dir, other.pid!, `not-${hostname()}`);
    assert.equal(pendingHandoff(dir), undefined, "another host's");
    writeFileSync(join(dir, HANDOFF_FILE), '{"pid": ');
    assert.equal(pendingHandoff(dir), undefined, 'half written');
    plant(dir, other.pid!);
    other.kill('SIGKILL');
    await new Promise((r) => other.once('exit', r));
    assert.equal(pendingHandoff(dir), undefined, 'asker gone');
    assert.equal(existsSync(join(dir, HANDOFF_FILE)), false, 'its request is removed');
  });

  it('lets go of a conversation only once no step runs', async function () {
    this.timeout(10_000);
    const session = { id: 'c1', dir, readOnly: false, busy: true };
    const handed: HandoffRequest[] = [];
    const watch = new HandoffWatch<typeof session>({
      isCurrent: () => true,
      handOver: async (_s, request) => void handed.push(request),
      log: { error: (m) => assert.fail(m) },
    });
    try {
      watch.watch(session);
      plant(dir, other.pid!);
      await new Promise((r) => setTimeout(r, 2_500));
      assert.equal(handed.length, 0, 'not while a step runs');
      session.busy = false;
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal(handed.length, 1);
      assert.equal(handed[0]!.pid, other.pid);
    } finally {
      watch.dispose();
    }
  });
});
