import assert from 'node:assert/strict';
import { planAwaitsApproval } from '../../../src/core/state/plan-approval';

describe('state: a plan that waits for approval', () => {
  const plan = [{ title: 'Write the notes', notes: '', status: 'todo' }];

  it('waits after a plan-mode run ended with a plan', () => {
    assert.equal(planAwaitsApproval({ mode: 'plan', tasks: plan, status: 'finished' }), true);
    assert.equal(planAwaitsApproval({ mode: 'plan', tasks: plan, status: 'idle' }), true);
  });

  it('does not wait while running, without a plan, or in act mode', () => {
    assert.equal(planAwaitsApproval({ mode: 'plan', tasks: plan, status: 'running' }), false);
    assert.equal(planAwaitsApproval({ mode: 'plan', tasks: [], status: 'finished' }), false);
    assert.equal(planAwaitsApproval({ mode: 'act', tasks: plan, status: 'finished' }), false);
  });
});
