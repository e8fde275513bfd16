// Lost data is reported, never silently replaced: the real CLI as a child process against the
// scripted model, on conversations whose files are deleted or damaged between runs, and on a
// disk that fills up during a run. Each case checks that nothing recorded before is lost, and that
// no reader is told a story the log does not support ("idle, 0 events", "running").
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { openEventStore } from '../../../src/core/log';
import { jsonLines, printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';
import { flipByteInLine, lineOffsets } from '../log/helpers';

type Json = Record<string, unknown>;

const segmentFile = (store: string, no: number) =>
  join(store, 'segments', `${String(no).padStart(6, '0')}.log`);
const meta = (store: string) =>
  JSON.parse(readFileSync(join(store, 'meta.json'), 'utf8')) as { checkpoint: number };

async function storedIds(store: string): Promise<string[]> {
  const s = await openEventStore<StoredConversationEvent>(store, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  const ids = (await s.slice()).map((e) => e.id);
  await s.close();
  return ids;
}

describe('hostile: lost data is reported, never silently replaced', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const replies = (n: number) => ({
    name: 'answers',
    turns: Array.from({ length: n }, (_, i) => ({ reply: { content: `Answer ${i + 1}.` } })),
  });

  async function run(env: Json, ws: string, store: string, task: string) {
    return runCli(['run', '--workspace', ws, '--task', task, '--store', store, '--json'], {
      env: env as Record<string, string>,
    });
  }

  async function show(store: string): Promise<Json> {
    const r = await runCli(['show', store, '--json']);
    assert.equal(r.code, 0, printed(r));
    return JSON.parse(r.stdout) as Json;
  }

  it('the only segment deleted: show reports the lost events, run --store refuses until the loss is accepted', async () => {
    const env = await fx.startLlm(replies(2));
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const first = await run(env, ws, store, 'first task');
    assert.equal(first.code, 0, printed(first));
    const recorded = jsonLines(first).length;
    assert.equal(meta(store).checkpoint, recorded);

    rmSync(segmentFile(store, 1));
    const text = await runCli(['show', store]);
    assert.equal(text.code, 0, printed(text));
    assert.doesNotMatch(text.stdout, /status\s+idle/);
    assert.match(text.stdout, /DATA LOST/);
    assert.match(text.stdout, new RegExp(`${recorded} events \\(#0-#${recorded - 1}\\)`));
    assert.match(text.stdout, /segments\/000001\.log is missing/);
    assert.match(text.stdout, /logbook repair .* --accept-lost-events/);
    const json = await show(store);
    assert.equal(json.status, 'data_lost');
    assert.equal((json.lost_events as Json).count, recorded);
    assert.equal((json.lost_events as Json).exact, true);

    const requests = fx.llm!.completionBodies().length;
    const refused = await run(env, ws, store, 'start over?');
    assert.equal(refused.code, 1, printed(refused));
    assert.match(refused.stderr, /lost/);
    assert.match(refused.stderr, /logbook repair/);
    assert.deepEqual(readdirSync(join(store, 'segments')), [], 'no new conversation in its place');
    assert.equal(meta(store).checkpoint, recorded, 'what meta.json recorded is kept');
    assert.equal(fx.llm!.completionBodies().length, requests, 'and the model was not asked');

    const notAccepted = await runCli(['repair', store]);
    assert.equal(notAccepted.code, 1, printed(notAccepted));
    assert.match(notAccepted.stderr, /Nothing was changed/);
    const repaired = await runCli(['repair', store, '--accept-lost-events']);
    assert.equal(repaired.code, 0, printed(repaired));

    const again = await run(env, ws, store, 'second task');
    assert.equal(again.code, 0, printed(again));
    const kinds = jsonLines(again).map((e) => [e.kind, e.key]);
    assert.ok(
      kinds.some(([k]) => k === 'SystemPromptEvent'),
      'the prompt is re-derived',
    );
    const after = await show(store);
    assert.equal(after.status, 'finished');
    assert.equal((after.accepted_losses as Json[])[0]?.count, recorded);
    const messages = fx.llm!.completionBodies().at(-1)!.messages as { role: string }[];
    assert.equal(messages[0]?.role, 'system');
  });

  it('the last of several segments deleted: the events meta.json recorded in it are reported lost', async () => {
    const env = await fx.startLlm(replies(2));
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    assert.equal((await run(env, ws, store, 'first task')).code, 0);
    // Split the log into two segments, as a long conversation has them (records keep their seq).
    const lines = readFileSync(segmentFile(store, 1), 'utf8').split(/(?<=\n)/);
    const half = Math.ceil(lines.length / 2);
    writeFileSync(segmentFile(store, 1), lines.slice(0, half).join(''));
    writeFileSync(segmentFile(store, 2), lines.slice(half).join(''));
    const second = await run(env, ws, store, 'second task');
    assert.equal(second.code, 0, printed(second));
    const total = meta(store).checkpoint;
    const before = await storedIds(store);
    assert.equal(before.length, total);
    const inFirst = lineOffsets(segmentFile(store, 1)).length;
    const firstBytes = readFileSync(segmentFile(store, 1));

    rmSync(segmentFile(store, 2));
    const json = await show(store);
    assert.equal(json.status, 'data_lost');
    const lost = json.lost_events as Json;
    assert.equal(lost.count, total - inFirst, 'the count meta.json recorded');
    assert.deepEqual(lost.ranges, [{ from: inFirst, to: total }]);
    assert.deepEqual(lost.missing_segments, ['000002.log']);

    const refused = await runCli(['approve', store], { env });
    assert.equal(refused.code, 1, printed(refused));
    const refusedRun = await run(env, ws, store, 'third task');
    assert.equal(refusedRun.code, 1, printed(refusedRun));
    assert.match(refusedRun.stderr, new RegExp(`${total - inFirst} events`));
    // Nothing recorded before the deleted file is lost or changed.
    assert.deepEqual(readFileSync(segmentFile(store, 1)), firstBytes);
    assert.deepEqual(await storedIds(store), before.slice(0, inFirst));
  });

  it('a corrupt system-prompt record: the resumed request still has a system message', async () => {
    const env = await fx.startLlm(replies(2));
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const first = await run(env, ws, store, 'first task');
    assert.equal(first.code, 0, printed(first));
    assert.equal(jsonLines(first)[0]?.kind, 'SystemPromptEvent');
    const before = await storedIds(store);
    flipByteInLine(segmentFile(store, 1), 0, 30);

    const second = await run(env, ws, store, 'second task');
    assert.equal(second.code, 0, printed(second));
    const messages = fx.llm!.completionBodies()[1]!.messages as { role: string; content: string }[];
    assert.equal(messages[0]?.role, 'system');
    assert.match(messages[0]!.content, /You are Logbook/);
    assert.ok(messages.some((m) => m.role === 'user' && /first task/.test(JSON.stringify(m))));
    // Everything but the damaged record is still there, in place.
    const after = await storedIds(store);
    assert.deepEqual(after.slice(1, before.length), before.slice(1));
    assert.equal((await show(store)).corrupt_records, 1);
  });

  describe('a disk that fills up during a run (a real tmpfs; needs root)', () => {
    let mnt: string | undefined;
    before(function () {
      // Not one of the fixture's folders: those are removed after each test, this one is unmounted first.
      const dir = mkdtempSync(join(tmpdir(), 'logbook-enospc-'));
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
        mnt = dir;
      } catch (err) {
        rmSync(dir, { recursive: true, force: true });
        console.log(`      skipped: cannot mount a small tmpfs here (${String(err).split('\n')[0]})`);
        this.skip();
      }
    });
    after(() => {
      if (!mnt) return;
      execFileSync('umount', [mnt]);
      rmSync(mnt, { recursive: true, force: true });
    });

    it('ENOSPC: the CLI exits with a clear error and show does not say running', async () => {
      const env = await fx.startLlm({
        name: 'fill-the-disk',
        turns: [
          {
            reply: {
              toolCalls: [terminalCall('call_fill', 'head -c 4M /dev/zero > fill.bin; seq 1 4000')],
            },
          },
          { reply: { content: 'Should not be reached.' } },
        ],
      });
      const ws = join(mnt!, 'ws');
      mkdirSync(ws);
      const store = join(mnt!, 'conv');
      const r = await runCli(
        ['run', '--workspace', ws, '--task', 'fill it', '--store', store, '--confirm', 'never', '--json'],
        { env },
      );
      assert.equal(r.code, 3, printed(r));
      assert.match(r.stderr, /Stopped with an error: .*log could not be written.*ENOSPC/, printed(r));
      const json = await show(store);
      assert.notEqual(json.status, 'running', JSON.stringify(json));
      assert.equal(json.status, 'error', JSON.stringify(json));
      assert.match(JSON.stringify(json.last_error), /log_write_failed/);
      // Every event the run printed as recorded is in the log.
      const ids = await storedIds(store);
      for (const e of jsonLines(r)) assert.ok(ids.includes(e.id as string), `${e.kind} ${e.id}`);
      assert.ok(existsSync(join(store, 'meta.json')));
    });
  });
});
