// A workspace that cannot be checkpointed gets one notice per conversation, known from the log:
// reopening the conversation (a new process, a reloaded window) does not say it again.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, type CreateFields, type Event } from '../../../src/core/events';
import { deriveState } from '../../../src/core/state';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { createHarness, type Harness } from '../../support/agent-harness';

const terminal = (id: string, command: string) => ({
  id,
  name: 'terminal',
  arguments: { command, security_risk: 'LOW', summary: id },
});

const notices = (events: readonly Event[]) =>
  events.filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'checkpoint_unavailable');

describe('The checkpoint_unavailable notice', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  let storeRoot: string;
  beforeEach(() => {
    storeRoot = mkdtempSync(join(tmpdir(), 'logbook-ckpt-stores-'));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    rmSync(storeRoot, { recursive: true, force: true });
  });

  it('is given once, and a reopened conversation knows it from the log and does not repeat it', async () => {
    h = await createHarness({
      name: 'unavailable-once',
      turns: [
        { reply: { toolCalls: [terminal('call_a', 'echo a > a.txt')] } },
        { match: { lastRole: 'tool' }, reply: { toolCalls: [terminal('call_b', 'echo b > b.txt')] } },
        { match: { lastRole: 'tool' }, reply: { content: 'First done.' } },
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminal('call_c', 'echo c > c.txt')] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Second done.' } },
      ],
    });
    const ws = h.workspace;
    for (let i = 0; i < 5; i++) writeFileSync(join(ws, `f${i}.txt`), String(i));
    // Over the file limit: every attempt to record fails.
    const tooSmall = () =>
      new GitCheckpointStore({
        workspace: ws,
        storeDir: storeDirFor(storeRoot, ws),
        limits: { maxFiles: 3 },
      });

    const store1 = await h.persistentStore();
    const first = await h.open({ store: store1, checkpoints: tooSmall() });
    assert.equal(first.state.checkpointsUnavailable, false);
    await first.sendMessage('two files');
    assert.equal(await first.run(), 'finished');
    assert.equal(notices(await first.events()).length, 1, 'one notice for two actions');
    assert.equal(first.state.checkpointsUnavailable, true);
    await store1.close();

    const second = await h.open({ store: await h.persistentStore(), checkpoints: tooSmall() });
    assert.equal(second.state.checkpointsUnavailable, true, 'the reopened state knows from the log');
    await second.sendMessage('one more');
    assert.equal(await second.run(), 'finished');
    assert.ok(existsSync(join(ws, 'c.txt')), 'the agent went on');
    const events = await second.events();
    assert.equal(notices(events).length, 1, 'no second notice after the reopen');
    assert.ok(
      !events.some(
        (e) =>
          e.kind === 'ConversationStateUpdateEvent' &&
          /^checkpoint/.test(e.key) &&
          e.key !== 'checkpoint_unavailable',
      ),
    );
    assert.equal(deriveState(events).checkpointsUnavailable, true);
  });

  it('a checkpoint recorded after the notice clears it from the state', () => {
    const notice = createEvent('ConversationStateUpdateEvent', {
      key: 'checkpoint_unavailable',
      value: { message: 'too large' },
      parent_id: null,
    } as CreateFields<'ConversationStateUpdateEvent'>) as Event;
    assert.equal(deriveState([notice]).checkpointsUnavailable, true);
    const later = createEvent('ConversationStateUpdateEvent', {
      key: 'checkpoint',
      value: { checkpoint: 'a'.repeat(40), reason: 'restore', files_changed: 1 },
      parent_id: notice.id,
    } as CreateFields<'ConversationStateUpdateEvent'>) as Event;
    assert.equal(deriveState([notice, later]).checkpointsUnavailable, false);
  });
});
