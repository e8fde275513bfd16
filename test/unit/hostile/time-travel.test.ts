// Time travel's arguments. An event index the CLI printed, given back as a bare number, must name
// that event: digits are also how an id can start, and `show --at 22` once took 22 as the start of
// the id of event 43 and showed that moment without a word (restore and diff read their points the
// same way, so a restore could have gone to the wrong point). Now an index wins, and the command
// says on stderr that it read one.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateConversation } from '../../../bench/conversation-generator';
import { type Event, parseEvent, serializeEvent } from '../../../src/core/events';
import { eventFileName } from '../../../src/core/log';
import { resolveRef } from '../../../src/host/node/cli/event-ref';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'openhands');
const TRAP = 43;

/** `n` generated events whose ids are renamed so that only event TRAP's id starts with "2". */
async function trappedEvents(n: number): Promise<Event[]> {
  const events: Event[] = [];
  await generateConversation(n, 11, 'hostile-time-travel', (e) => void events.push(e));
  let text = events.map((e) => serializeEvent(e)).join('\n');
  events.forEach((e, k) => {
    const id = `${k === TRAP ? '22' : 'ee'}eeeeee-0000-4000-8000-${String(k).padStart(12, '0')}`;
    text = text.split(e.id).join(id);
  });
  return text.split('\n').map((line) => {
    const r = parseEvent(JSON.parse(line));
    if (!r.ok) throw new Error(r.error.message);
    return r.event;
  });
}

describe('hostile: time travel arguments', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('a bare index that is also the start of another event id names the event at that index', async () => {
    const events = await trappedEvents(60);
    assert.ok(events[TRAP]!.id.startsWith('22') && events.filter((e) => e.id.startsWith('2')).length === 1);
    // What restore and diff read their points with.
    assert.deepEqual(resolveRef(events, '22', 'conv'), {
      index: 22,
      eventId: events[22]!.id,
      readAs: 'index',
    });
    assert.equal(resolveRef(events, '#22', 'conv').index, 22);
    // Past the end of the log, digits are the start of an id again; fitting none, they are refused.
    assert.throws(() => resolveRef(events, '2222', 'conv'), /No event #2222 in this conversation/);
    assert.deepEqual(resolveRef(events, '22eeeeee', 'conv'), {
      index: TRAP,
      eventId: events[TRAP]!.id,
      readAs: 'id',
    });

    const root = fx.tmp();
    const source = join(root, 'oh');
    mkdirSync(join(source, 'events'), { recursive: true });
    copyFileSync(join(FIXTURES, 'base_state.json'), join(source, 'base_state.json'));
    events.forEach((e, i) =>
      writeFileSync(join(source, 'events', eventFileName(i, e.id)), serializeEvent(e)),
    );
    const store = join(root, 'imported');
    assert.equal((await runCli(['import-openhands', source, '--store', store])).code, 0);

    const shown = await runCli(['show', store, '--at', '22', '--json']);
    assert.equal(shown.code, 0, printed(shown));
    const at = (JSON.parse(shown.stdout) as { at: { index: number; id: string; read_as: string } }).at;
    assert.deepEqual(at, { ...at, index: 22, id: events[22]!.id, read_as: 'index' });
    assert.match(
      shown.stderr,
      /"22" read as event index 22 \(#22\); to name an id that starts with these digits, give more of it\./,
    );
  });
});
