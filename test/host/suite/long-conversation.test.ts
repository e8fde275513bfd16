import * as assert from 'node:assert/strict';
import { ChatController, EARLIER_PAGE, VIEW_WINDOW } from '../../../src/host/vscode/chat/chat-view';
import { logbook, recordingWebview, until } from './helpers';

describe('A long conversation in the chat view', () => {
  it('sends the newest events first and the earlier ones a page at a time, read from the log', async () => {
    const { service } = await logbook();
    const session = await service.create();
    const renames = VIEW_WINDOW + 300;
    for (let i = 0; i < renames; i++) await session.rename(`Title ${i}`);
    const count = await service.eventCount(session.id);
    assert.equal(count, renames + 1, 'the system prompt and every rename');
    await service.setActive(session.id);

    const view = recordingWebview();
    const log = { info: () => undefined, warn: () => undefined, error: (m: string) => assert.fail(m) };
    const controller = new ChatController(view.port, service, log);
    try {
      view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
      await until(
        () => view.posted.some((m) => m.type === 'events' && m.events.at(-1)?.seq === count - 1),
        'the newest event',
      );
      const first = count - VIEW_WINDOW;
      assert.deepEqual(
        view.posted.find((m) => m.type === 'window'),
        { type: 'window', conversationId: session.id, firstSeq: first },
      );
      const sent = view.posted.flatMap((m) => (m.type === 'events' ? m.events : []));
      assert.equal(sent.length, VIEW_WINDOW);
      assert.equal(sent[0]!.seq, first);
      assert.equal(sent.at(-1)!.event['value'], `Title ${renames - 1}`);

      view.send({ type: 'loadEarlier', conversationId: session.id, beforeSeq: first });
      await until(() => view.posted.some((m) => m.type === 'earlier'), 'the earlier page');
      const earlier = view.posted.find((m) => m.type === 'earlier');
      assert.ok(earlier?.type === 'earlier');
      assert.equal(earlier.events.length, Math.min(EARLIER_PAGE, first));
      assert.equal(earlier.events.at(-1)!.seq, first - 1);
      assert.equal(earlier.events[0]!.seq, Math.max(0, first - EARLIER_PAGE));
      assert.equal(earlier.events[0]!.event.kind, 'SystemPromptEvent');
    } finally {
      controller.dispose();
      await service.delete(session.id);
    }
  });
});
