// Every field of the chat header reaches the webview: clampHeader builds the header anew, field by
// field, so a field added to the protocol and forgotten there vanished without a sound (the
// signature badge lost its signers' names and its note that way).
import assert from 'node:assert/strict';
import { clampHeader } from '../../../src/host/vscode/chat/chat-view-limits';
import { type ConversationHeader, HostMessage } from '../../../src/protocol/messages';

const full: Required<ConversationHeader> = {
  id: 'c1',
  title: 'Tidy the tree',
  status: 'running',
  promptTokens: 10,
  completionTokens: 5,
  cachedTokens: 2,
  reasoningTokens: 1,
  cost: 0.25,
  pendingActionIds: ['a1'],
  pendingRisks: [{ actionId: 'a1', risk: 'HIGH', reason: 'deletes files' }],
  readOnly: true,
  heldBy: 'the window on “ws”',
  readOnlyBecause: 'another-window',
  task: { name: 'login-fix', branch: 'logbook/login-fix' },
  mode: 'plan',
  planAwaitsApproval: true,
  model: { name: 'gpt-4o-mini', provider: 'openai' },
  signature: 'verified',
  signers: ['did:key:z6Mk1'],
  signerNames: ['you'],
  signatureNote: '12 events, signed by you',
  brokenAt: { seq: 3, id: 'e3', reason: 'changed after signing' },
  children: [
    {
      conversationId: 'k1',
      parentConversationId: 'c1',
      parentEventId: 'a0',
      agentName: 'explore',
      branch: 'main.explore.1',
      task: 'Look around.',
      model: 'small',
      status: 'running',
      cost: 0,
      tokens: 0,
      pendingActionIds: [],
      pendingRisks: [],
    },
  ],
};

describe('clampHeader', () => {
  it('keeps every field of a header that is within the limits, as it was', () => {
    const clamped = clampHeader(full);
    assert.deepEqual(Object.keys(clamped).sort(), Object.keys(full).sort());
    assert.deepEqual(clamped, full);
    const msg = HostMessage.parse({ type: 'header', header: clamped });
    assert.ok(msg.type === 'header');
    assert.deepEqual(msg.header, full);
  });

  it('cuts text beyond the limits instead of losing the header', () => {
    const long = 'x'.repeat(100_000);
    const clamped = clampHeader({ ...full, signatureNote: long, signerNames: [long] });
    assert.doesNotThrow(() => HostMessage.parse({ type: 'header', header: clamped }));
    assert.ok(clamped.signatureNote!.length < long.length);
  });
});
