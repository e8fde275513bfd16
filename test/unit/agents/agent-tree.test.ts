import * as assert from 'node:assert/strict';
import { agentTree } from '../../../src/core/agents/agent-tree';
import { deriveAgentIdentity } from '../../../src/core/agents/agent-key';
import { identityFromPem, newSigningKeyPem, publicKeyOfDid } from '../../../src/core/signing';
import { SdkExporter } from '../../../src/core/events/openhands-sdk-export';
import type { Event } from '../../../src/core/events';
import { sdkEventError } from '../../support/openhands-sdk-schema';
import crypto from 'node:crypto';

const update = (key: string, value: unknown, stamp = { agent_name: 'main', branch: 'main' }) => ({
  kind: 'ConversationStateUpdateEvent',
  key,
  value,
  ...stamp,
});

describe('agents in a log', () => {
  it('derives children, handoffs and per-branch usage from the events alone', () => {
    const tree = agentTree([
      { kind: 'SystemPromptEvent', agent_name: 'main', branch: 'main' } as never,
      update('agent_start', {
        agent_name: 'explore',
        branch: 'main.explore.1',
        conversation_id: 'c1',
        folder: 'agents/c1',
        did: 'did:key:zA',
        parent_event_id: 'a1',
        task: 't',
        model: 'small-model',
      }),
      update('llm_usage', {
        usage_id: 'agent:main.explore.1',
        prompt_tokens: 10,
        completion_tokens: 5,
        cost: 0.5,
      }),
      update('llm_usage', { usage_id: 'agent', prompt_tokens: 3, completion_tokens: 2, cost: 0.25 }),
      update('agent_end', {
        agent_name: 'explore',
        branch: 'main.explore.1',
        conversation_id: 'c1',
        status: 'finished',
        escalated: true,
        message: 'm',
      }),
      update('agent_start', { agent_name: 'docs', branch: 'main', did: 'did:key:zB', handoff: true }),
      { kind: 'MessageEvent', agent_name: 'docs', branch: 'main' } as never,
    ]);
    assert.deepEqual(tree.children, [
      {
        agentName: 'explore',
        branch: 'main.explore.1',
        conversationId: 'c1',
        folder: 'agents/c1',
        did: 'did:key:zA',
        parentEventId: 'a1',
        task: 't',
        narrowed: [],
        grant: null,
        model: 'small-model',
        end: { status: 'finished', escalated: true, stopped: false, message: 'm' },
      },
    ]);
    assert.deepEqual(tree.handoffs, [{ from: 'main', to: 'docs', did: 'did:key:zB', index: 5 }]);
    const main = tree.branches.find((b) => b.branch === 'main')!;
    assert.deepEqual(main.agents, ['main', 'docs']);
    assert.equal(main.events, 7);
    assert.deepEqual([main.promptTokens, main.completionTokens, main.cost], [3, 2, 0.25]);
    const child = tree.branches.find((b) => b.branch === 'main.explore.1')!;
    assert.deepEqual([child.promptTokens, child.completionTokens, child.cost, child.events], [10, 5, 0.5, 0]);
  });

  it("an agent's key is derived from the user's: stable per child, different across children and users", () => {
    const user = identityFromPem(newSigningKeyPem());
    const a1 = deriveAgentIdentity(user, 'child-1');
    const a2 = deriveAgentIdentity(user, 'child-1');
    const b = deriveAgentIdentity(user, 'child-2');
    const other = deriveAgentIdentity(identityFromPem(newSigningKeyPem()), 'child-1');
    assert.equal(a1.did, a2.did);
    assert.notEqual(a1.did, b.did);
    assert.notEqual(a1.did, other.did);
    assert.notEqual(a1.did, user.did);
    // It signs as its did:key says.
    const msg = Buffer.from('hello');
    const pub = publicKeyOfDid(a1.did)!;
    assert.ok(crypto.verify(null, msg, pub, a1.sign(msg)));
  });

  it('the OpenHands export leaves agent_name and branch out, and the rest loads in the SDK', () => {
    const exporter = new SdkExporter();
    const event = {
      id: '5f4a5776-a14d-4570-9eab-176e71818a0b',
      timestamp: '2026-01-01T00:00:00.000Z',
      source: 'environment',
      parent_id: null,
      key: 'agent_start',
      value: { agent_name: 'explore', branch: 'main.explore.1', did: 'did:key:zA' },
      kind: 'ConversationStateUpdateEvent',
      agent_name: 'main',
      branch: 'main',
    } as unknown as Event;
    assert.notEqual(sdkEventError(event), null, 'the SDK refuses the stamp as it is');
    const [out] = exporter.convert(event);
    assert.equal(sdkEventError(out), null);
    assert.ok(!('agent_name' in out!) && !('branch' in out!));
    assert.deepEqual(exporter.notes.droppedFields, { 'agent_name and branch': 1 });
  });
});
