// The chat header's "Plan awaits approval" is the value the status bar reads (plan-approval.ts):
// the header message the chat view posts must carry it through to what the webview accepts.
import assert from 'node:assert/strict';
import { initialState } from '../../../src/core/state';
import { planAwaitsApproval } from '../../../src/core/state/plan-approval';
import type { ConversationHeader } from '../../../src/host/vscode/chat/chat-backend';
import { clampHeader } from '../../../src/host/vscode/chat/chat-view-limits';
import { HostMessage } from '../../../src/protocol/messages';

function headerOf(s: ReturnType<typeof initialState>): ConversationHeader {
  return {
    id: 'c1',
    title: 'Plan the validation',
    status: s.status,
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cost: 0,
    pendingActionIds: [],
    readOnly: false,
    mode: s.mode,
    ...(planAwaitsApproval(s) ? { planAwaitsApproval: true } : {}),
  };
}

/** What the webview receives: the clamped header, as the protocol parses it. */
function received(h: ConversationHeader) {
  const msg = HostMessage.parse({ type: 'header', header: clampHeader(h) });
  assert.equal(msg.type, 'header');
  return msg.type === 'header' ? msg.header : undefined;
}

describe('chat header: plan awaits approval', () => {
  const planned = {
    ...initialState('c1'),
    mode: 'plan' as const,
    status: 'finished' as const,
    tasks: [{ title: 'Reject non-numbers', notes: '', status: 'todo' }],
  };

  it('reaches the webview when the log says the plan waits', () => {
    assert.equal(planAwaitsApproval(planned), true);
    assert.equal(received(headerOf(planned))?.planAwaitsApproval, true);
  });

  it('is absent when it does not (no tasks, act mode, running)', () => {
    for (const s of [
      { ...planned, tasks: [] },
      { ...planned, mode: 'act' as const },
      { ...planned, status: 'running' as const },
    ]) {
      assert.equal(planAwaitsApproval(s), false);
      assert.equal(received(headerOf(s))?.planAwaitsApproval, undefined);
    }
  });
});
