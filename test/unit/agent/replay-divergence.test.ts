import * as assert from 'node:assert/strict';
import { lineDiff, normalise } from '../../../src/core/agent/replay-divergence';
import { createEvent, type CreateFields, type Event } from '../../../src/core/events';
import { RecordedLlmClient, recordedReplies } from '../../../src/core/llm/recorded-client';
import { LlmError } from '../../../src/core/llm';

function action(responseId: string, callId: string, thought: string): Event {
  return createEvent('ActionEvent', {
    source: 'agent',
    thought: thought ? [{ type: 'text', text: thought }] : [],
    action: null,
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: `{"command":"echo ${callId}"}` },
    llm_response_id: responseId,
  } as CreateFields<'ActionEvent'>) as Event;
}

describe('replay: recorded replies and normalised results', () => {
  it('rebuilds each recorded reply in order, parallel calls together, and refuses one more', async () => {
    const events = [
      action('r1', 'c1', 'first'),
      action('r1', 'c2', ''),
      action('r2', 'c3', 'second'),
      createEvent('MessageEvent', {
        source: 'agent',
        llm_message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
        llm_response_id: 'r3',
      } as CreateFields<'MessageEvent'>) as Event,
    ];
    const client = new RecordedLlmClient(recordedReplies(events));
    const got = [];
    for (let i = 0; i < 3; i++) got.push(await client.complete());
    assert.deepEqual(
      got.map((r) => [r.id, r.content, r.toolCalls.map((c) => c.id)]),
      [
        ['r1', 'first', ['c1', 'c2']],
        ['r2', 'second', ['c3']],
        ['r3', 'done', []],
      ],
    );
    assert.equal(got[0]!.toolCalls[1]!.arguments, '{"command":"echo c2"}');
    await assert.rejects(
      client.complete(),
      (e: unknown) => e instanceof LlmError && /no model reply left/.test(e.message),
    );
  });

  it('normalises folders, ids, timestamps, temp paths and durations, and nothing else', () => {
    const n = {
      folders: [
        { path: '/home/u/project', as: '<workspace>' },
        { path: '/tmp/logbook-replay-x/workspace', as: '<workspace>' },
      ],
    };
    const a = normalise(
      'in /home/u/project/src at 2026-01-02T03:04:05.123Z id 0b0c4f1e-1234-4abc-8def-0123456789ab took 1.5s, /tmp/x1',
      n,
    );
    const b = normalise(
      'in /tmp/logbook-replay-x/workspace/src at 2027-11-12T13:14:15Z id 9f9c4f1e-1234-4abc-8def-0123456789ff took 20 ms, /tmp/y2',
      n,
    );
    assert.equal(a, b);
    assert.equal(a, 'in <workspace>/src at <time> id <id> took <duration>, <tmp>');
    assert.notEqual(normalise('exit code 0', n), normalise('exit code 1', n));
  });

  it('a numbered line that begins with a unit is not taken for a duration', () => {
    const n = { folders: [] };
    assert.equal(
      normalise('     1\tsecond line\n     2\tms-dos\n', n),
      '     1\tsecond line\n     2\tms-dos\n',
    );
    assert.equal(normalise('3\nseconds', n), '3\nseconds');
    assert.equal(
      normalise('took 1.5 s, then 20ms and 2 seconds', n),
      'took <duration>, then <duration> and <duration>',
    );
  });

  it('diffs lines, recorded first', () => {
    assert.deepEqual(lineDiff('a\nb\nc', 'a\nB\nc\nd'), ['- b', '+ B', '+ d']);
    assert.deepEqual(lineDiff('same', 'same'), []);
  });
});
