// Cold-open probe, run in a fresh process per measurement: open a conversation and read its last
// 200 events, as a writer would (taking the lock), then print {ms, rssMB, length, lastId} as JSON.
// Module loading is not timed.
import { OpenHandsDirStore, SegmentEventStore, type EventStore } from '../src/core/log';

async function main(): Promise<void> {
  const [backend, dir] = process.argv.slice(2);
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const store: EventStore =
    backend === 'openhands' ? await OpenHandsDirStore.open(dir!) : await SegmentEventStore.open(dir!);
  const last = await store.slice(-200);
  const ms = performance.now() - t0;
  const rssMB = (process.memoryUsage().rss - rss0) / (1024 * 1024);
  if (last.length !== Math.min(200, store.length)) throw new Error('short read');
  process.stdout.write(
    JSON.stringify({ ms, rssMB, length: store.length, lastId: last[last.length - 1]?.id }) + '\n',
  );
  await store.close();
}

main().catch((err: unknown) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
