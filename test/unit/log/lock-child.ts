// Child process for the lock tests: tries to take the lock on argv[2] (at wall-clock time argv[4]
// if given, so several children really race), prints the outcome as one JSON line, holds the lock
// for argv[3] ms (or until killed), then exits. argv[5]: the holder written into the lock.
import { acquireLock } from '../../../src/core/log/lock';

const [dir, holdMs, startAt, holder] = process.argv.slice(2);
while (startAt && startAt !== '0' && Date.now() < Number(startAt)) {
  /* spin until the agreed moment */
}
const r = acquireLock(dir!, undefined, holder);
process.stdout.write(
  JSON.stringify(r.acquired ? { acquired: true, pid: process.pid, tookOver: r.lock.tookOver } : r) + '\n',
);
setTimeout(
  () => {
    if (r.acquired) r.lock.release();
  },
  Number(holdMs ?? 0),
);
