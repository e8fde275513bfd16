// Crash-test child: appends events to the segment log in argv[2] until it is killed.
//
// stdout protocol, one line each, written only after the event happened:
//   open <length> <truncatedBytes> <quarantined>
//   ack <index> <id> <d|o>     the append of <id> resolved at <index>; d = durable, o = ordinary
//   snap <index>               writeSnapshot(<index>) resolved
// A resolved ordinary append has been written to the file (it survives a kill of this process);
// a resolved durable append has also been fdatasync'ed. stdout is a pipe, and pipe writes are
// synchronous on Linux, so a line the parent reads was printed before anything that followed.
import crypto from 'node:crypto';
import { SegmentEventStore } from '../../src/core/log';

const dir = process.argv[2]!;
let seed = Number(process.argv[3] ?? Date.now()) >>> 0;
function rand(): number {
  // xorshift32: reproducible runs for a given seed
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 0x100000000;
}

/** 0.2-50 KB, log-uniform, like real observations */
function size(): number {
  return Math.round(200 * Math.pow(250, rand()));
}

async function main(): Promise<void> {
  const store = await SegmentEventStore.open(dir, {
    // small segments and frequent checkpoints, so kills land in rolls and checkpoints too
    segmentBytes: 256 * 1024,
    sparseStride: 8,
    checkpointRecords: 50,
    checkpointBytes: 512 * 1024,
  });
  const r = store.openReport;
  if (store.readOnly) throw new Error(`crash child could not lock ${dir}: ${store.lockHeldBy}`);
  process.stdout.write(`open ${r.length} ${r.truncatedBytes} ${r.quarantined.length}\n`);
  let last: string | null = store.length > 0 ? (await store.get(store.length - 1)).id : null;
  for (;;) {
    // Sometimes several appends in flight at once, to exercise group commit under a kill.
    const burst = rand() < 0.3 ? 1 + Math.floor(rand() * 8) : 1;
    const inFlight: Promise<void>[] = [];
    for (let k = 0; k < burst; k++) {
      const id = crypto.randomUUID();
      const durable = rand() < 0.3;
      const e = {
        id,
        kind: durable ? 'ActionEvent' : 'ObservationEvent',
        parent_id: last,
        body: 'o'.repeat(size()),
      };
      last = id;
      inFlight.push(
        store.append(e, { durable }).then((index) => {
          process.stdout.write(`ack ${index} ${id} ${durable ? 'd' : 'o'}\n`);
        }),
      );
    }
    await Promise.all(inFlight);
    if (rand() < 0.02) {
      const at = store.length - 1;
      await store.writeSnapshot(at, JSON.stringify({ at }));
      process.stdout.write(`snap ${at}\n`);
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`crash child failed: ${String(err)}\n`);
  process.exit(3);
});
