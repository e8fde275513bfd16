import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  FORGOTTEN_LIST_MAX,
  forgottenFields,
  LlmSummarizingCondenser,
  View,
  ViewBuilder,
} from '../../../src/core/context';
import { type Condensation, createEvent, serializeEvent } from '../../../src/core/events';
import { SdkExportPipeline } from '../../../src/core/agent/sdk-export-pipeline';
import { conversation, Ids } from './events';
import { materialize, opArb } from './random-log';

/** The Condensation a plan asks for, its forgotten events as a list or (listMax 0) as a range. */
function condensationOf(id: string, forgotten: readonly { id: string }[], offset: number, listMax: number) {
  return createEvent('Condensation', {
    id,
    ...forgottenFields(forgotten, listMax),
    summary: 'S',
    summary_offset: offset,
  });
}

const ids = (v: { events: readonly { id: string }[] }) => v.events.map((e) => e.id);

describe('Condensation: a long run forgotten as a range', () => {
  it('lists a short run as OpenHands does, stores a long one as its two ends and a count', () => {
    const run = Array.from({ length: FORGOTTEN_LIST_MAX + 1 }, (_, i) => ({ id: `e${i}` }));
    assert.deepEqual(forgottenFields(run.slice(0, 3)), { forgotten_event_ids: ['e0', 'e1', 'e2'] });
    assert.deepEqual(forgottenFields(run), {
      forgotten_event_ids: [],
      forgotten_range: { first: 'e0', last: `e${FORGOTTEN_LIST_MAX}`, count: FORGOTTEN_LIST_MAX + 1 },
    });
  });

  it('the condenser writes a record and a request bounded whatever the length of the view', async () => {
    const idGen = new Ids();
    const events = conversation(idGen, 2000, 400);
    const condenser = new LlmSummarizingCondenser({
      maxSize: 100_000,
      keepFirst: 2,
      maxSummaryInputChars: 50_000,
    });
    const requests: { messages: { content: unknown }[] }[] = [];
    const llm = {
      complete: (req: { messages: { content: unknown }[] }) => {
        requests.push(req);
        return Promise.resolve({ id: 'r', content: 'summary', toolCalls: [] });
      },
    } as unknown as Parameters<LlmSummarizingCondenser['condense']>[1];
    const fields = (await condenser.condense(View.fromEvents(events), llm, { force: true }))!;
    assert.ok(fields.forgotten_range, 'a long run is a range');
    assert.ok(fields.forgotten_range.count > 1000);
    const record = serializeEvent(createEvent('Condensation', { id: idGen.next(), ...fields }));
    assert.ok(record.length < 1000, `${record.length} bytes`);
    // The summarizer sees the newest forgotten events that fit, and how many it does not see.
    const asked = String(requests[0]!.messages.at(-1)!.content);
    assert.ok(asked.length < 51_000, `${asked.length} characters asked`);
    assert.match(asked, /\[\d+ earlier events omitted/);
    const forgotten = condenser.plan(View.fromEvents(events), true)!.forgotten;
    const textOfCall = (i: number) => `[agent tool call]\nstep ${i}\n`;
    const callNo = (e: { kind: string; tool_call_id?: string }) => Number(e.tool_call_id!.slice(5));
    const calls = forgotten.filter((e) => e.kind === 'ActionEvent') as {
      kind: string;
      tool_call_id: string;
    }[];
    assert.ok(asked.includes(textOfCall(callNo(calls.at(-1)!))), 'the newest forgotten call is shown');
    assert.ok(!asked.includes(textOfCall(callNo(calls[0]!))), 'the oldest is not');
  });

  it('gives the same view as the list, from the log, incrementally, after a restore and in the export', () => {
    let ranges = 0;
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 10, maxLength: 60 }), fc.nat(), fc.nat(), (ops, cut, keep) => {
        const events = materialize(ops);
        const at = events.length ? cut % (events.length + 1) : 0;
        const before = new ViewBuilder().appendAll(events.slice(0, at));
        const condenser = new LlmSummarizingCondenser({ maxSize: 8, keepFirst: 1 + (keep % 3) });
        const plan = condenser.plan(before, true);
        if (!plan) return;
        const id = '00000000-0000-4000-8000-ffffffffffff';
        const listed = condensationOf(id, plan.forgotten, plan.summaryOffset, Infinity);
        const ranged = condensationOf(id, plan.forgotten, plan.summaryOffset, 0);
        assert.ok(ranged.forgotten_range && ranged.forgotten_event_ids.length === 0);
        ranges++;
        const rest = events.slice(at);
        const withList = [...events.slice(0, at), listed, ...rest];
        const withRange = [...events.slice(0, at), ranged, ...rest];
        const expected = View.fromEvents(withList);

        assert.deepEqual(ids(View.fromEvents(withRange)), ids(expected));
        const incremental = new ViewBuilder().appendAll(withRange);
        assert.deepEqual(ids(incremental), ids(expected));
        assert.deepEqual(incremental.messages(), expected.messages());

        // A snapshot's checkpoint taken right after the range, then the rest appended.
        const head = new ViewBuilder().appendAll([...events.slice(0, at), ranged]);
        const cp = JSON.parse(JSON.stringify(head.checkpoint())) as ReturnType<ViewBuilder['checkpoint']>;
        const byId = new Map([...events.slice(0, at), ranged].map((e) => [e.id, e]));
        const restored = ViewBuilder.restore(cp, (x) => byId.get(x));
        assert.ok(restored);
        for (const e of rest) {
          if (restored.referencesUnknownAction(e) && byId.has((e as { action_id: string }).action_id)) return;
          restored.append(e);
        }
        assert.deepEqual(ids(restored), ids(expected));

        // The export spells the range out; OpenHands' reading of it shows the same view.
        const pipeline = new SdkExportPipeline();
        const exported = withRange.flatMap((e) => pipeline.convert(e));
        const c = exported.find((e) => e.id === id) as Condensation;
        assert.equal('forgotten_range' in c, false);
        // OpenHands reads it as it reads the export of the list (which may differ from Logbook's
        // view where the export rebuilds a failed call or a reused call id: not this part's concern).
        const listPipeline = new SdkExportPipeline();
        const exportedList = withList.flatMap((e) => listPipeline.convert(e));
        assert.deepEqual(c.forgotten_event_ids, listed.forgotten_event_ids);
        assert.deepEqual(ids(View.fromEvents(exported)), ids(View.fromEvents(exportedList)));
      }),
      { numRuns: 800 },
    );
    assert.ok(ranges > 20, `only ${ranges} runs condensed`);
  });
});
