// What a checkpoint would hold is a listing of the workspace (git): the dispatcher reads it only for
// actions the default mode weighs it for, and not twice before a batch's first action.
import * as assert from 'node:assert/strict';
import type { ActionEvent } from '../../../../src/core/events';
import { ActionDispatcher } from '../../../../src/core/agent/action-dispatcher';
import { ActionCheckpoints } from '../../../../src/core/agent/action-checkpoints';
import { PolicyGate } from '../../../../src/core/agent/policy-gate';
import { recordActions } from '../../../../src/core/agent/reply-actions';
import type { CheckpointCoverage } from '../../../../src/core/checkpoints/types';
import type { ConfirmationPolicy } from '../../../../src/core/security';
import type { ToolPorts } from '../../../../src/core/tools';
import { noteTool, openJournal, policiesOver, reply } from '../../../support/loop-parts';

/** The checkpoints of a workspace nobody records, counting the coverage reads. */
class CountedCoverage extends ActionCheckpoints {
  reads = 0;
  override coverage(): Promise<CheckpointCoverage | null> {
    this.reads++;
    return Promise.resolve({ roots: ['/ws'], unheld: [] });
  }
  override before(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

async function readsFor(calls: string[], policy: ConfirmationPolicy): Promise<number> {
  const f = await openJournal();
  const look = noteTool('look', { readOnly: true });
  const note = noteTool('note');
  const tools = () => [look, note];
  const policies = policiesOver([], f);
  const batch = await recordActions(
    reply(calls.map((name, i) => ({ name, args: { text: `t${i}`, security_risk: 'LOW' } }))),
    { log: f.journal, policies, tools },
  );
  const checkpoints = new CountedCoverage('coverage-test', f.journal, undefined, tools);
  const dispatcher = new ActionDispatcher({
    log: f.journal,
    pending: () =>
      f.journal.state.pendingActions
        .map((p) => batch.find((a) => a.id === p.actionId))
        .filter((a): a is ActionEvent => a !== undefined),
    gate: new PolicyGate(tools, () => policy),
    policies,
    checkpoints,
    tools,
    ports: () => ({}) as ToolPorts,
    cwd: '/ws',
    abortable: () => new AbortController().signal,
  });
  assert.equal(await dispatcher.dispatch(batch), 'executed');
  assert.deepEqual(look.runs.length + note.runs.length, calls.length);
  return checkpoints.reads;
}

const DEFAULT: ConfirmationPolicy = { mode: 'risky', roots: ['/ws'], commandsSandboxed: true };

describe('action dispatcher: reading what a checkpoint would hold', () => {
  it('reads nothing for a batch of read-only tools (finish, think, grep): the policy never weighs it for them', async () => {
    assert.equal(await readsFor(['look'], DEFAULT), 0);
    assert.equal(await readsFor(['look', 'look'], DEFAULT), 0);
  });

  it('reads once for the batch and once before each later action that can change files', async () => {
    assert.equal(await readsFor(['note'], DEFAULT), 1);
    assert.equal(await readsFor(['note', 'note'], DEFAULT), 2);
    assert.equal(await readsFor(['look', 'note'], DEFAULT), 2);
    assert.equal(await readsFor(['note', 'look'], DEFAULT), 1);
  });

  it('reads nothing where the policy does not weigh it (no sandbox, another mode)', async () => {
    assert.equal(await readsFor(['note'], { ...DEFAULT, commandsSandboxed: false }), 0);
    assert.equal(await readsFor(['note'], { ...DEFAULT, mode: 'never' }), 0);
  });
});
