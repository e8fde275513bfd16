// The live preview of a remote reply: which of the server's StreamingDeltaEvents reach the chat, and
// when what was shown is ended or dropped (remote-deltas.ts).
import assert from 'node:assert/strict';
import {
  type RemoteDelta,
  RemoteReplyPreview,
  streamingDeltas,
} from '../../../src/host/node/remote/remote-deltas';

const delta = (fields: Record<string, unknown>) => ({ id: 'd', kind: 'StreamingDeltaEvent', ...fields });
const agentMessage = { id: 'm', kind: 'MessageEvent', source: 'agent' };
const update = { id: 'u', kind: 'ConversationStateUpdateEvent', source: 'environment' };

function preview(): { told: RemoteDelta[]; p: RemoteReplyPreview } {
  const told: RemoteDelta[] = [];
  return { told, p: new RemoteReplyPreview((d) => told.push(d)) };
}

describe('a remote reply while it streams', () => {
  it('takes text and reasoning from a StreamingDeltaEvent, nothing from anything else', () => {
    assert.deepEqual(streamingDeltas(delta({ content: 'Hel', reasoning_content: 'think' })), [
      { type: 'reasoning', text: 'think' },
      { type: 'text', text: 'Hel' },
    ]);
    assert.deepEqual(streamingDeltas(delta({ content: '' })), []);
    assert.deepEqual(streamingDeltas(delta({ content: 42, reasoning_content: { text: 'x' } })), []);
    assert.deepEqual(streamingDeltas({ ...agentMessage, content: 'not a delta' }), []);
  });

  it("shows deltas until the agent's event, and ends a preview the stream left mid-reply", () => {
    const { told, p } = preview();
    p.delta(delta({ content: 'a' }));
    p.event(update); // not the reply's final form
    p.delta(delta({ content: 'b' }));
    p.event(agentMessage);
    p.ended(); // nothing mid-reply: nothing to end
    assert.deepEqual(told, [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
    p.delta(delta({ content: 'c' }));
    p.ended();
    assert.deepEqual(told.slice(2), [{ type: 'text', text: 'c' }, { type: 'end' }]);
  });

  it("a drop mid-reply drops what was shown and shows none of that reply's rest", () => {
    const { told, p } = preview();
    p.dropped(); // between replies: nothing shown, nothing to drop
    p.delta(delta({ content: 'half' }));
    p.dropped();
    p.delta(delta({ content: ' a hole later' }));
    p.ended();
    assert.deepEqual(told, [{ type: 'text', text: 'half' }, { type: 'discard' }]);
    // The reply's final event: the next reply shows again.
    p.event(agentMessage);
    p.delta(delta({ content: 'next' }));
    assert.deepEqual(told.at(-1), { type: 'text', text: 'next' });
  });

  it('without a listener (the CLI) nothing is kept or told', () => {
    const p = new RemoteReplyPreview(undefined);
    p.delta(delta({ content: 'x' }));
    p.dropped();
    p.ended();
  });
});
