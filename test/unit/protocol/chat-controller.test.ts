// The host side of the panel, without VS Code: a fake webview and a fake backend.
import assert from 'node:assert/strict';
import type {
  ChatBackend,
  ConversationHeader,
  SequencedEvent,
  StreamDelta,
} from '../../../src/host/vscode/chat/chat-backend';
import {
  ChatController,
  EARLIER_PAGE,
  SYNC_CHUNK,
  VIEW_WINDOW,
} from '../../../src/host/vscode/chat/chat-view';
import { type ChatIntent, performIntent } from '../../../src/host/vscode/chat/chat-intents';
import {
  type HostMessage,
  parseHostMessage,
  type ReplayReport,
  type TimelinePoint,
} from '../../../src/protocol/messages';

type Listener<T> = (e: T) => void;
class Emitter<T> {
  private listeners = new Set<Listener<T>>();
  event = (l: Listener<T>) => {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  };
  fire(e: T) {
    for (const l of this.listeners) l(e);
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

function makeHeader(id: string, pending: string[] = []): ConversationHeader {
  return {
    id,
    title: 'T',
    status: 'running',
    promptTokens: 1,
    completionTokens: 2,
    cachedTokens: 0,
    cost: 0,
    pendingActionIds: pending,
    readOnly: false,
  };
}

function ev(seq: number, kind = 'MessageEvent'): SequencedEvent {
  return { seq, event: { kind, id: `e${seq}` } };
}

class FakeBackend implements ChatBackend {
  activeId: string | undefined = 'c1';
  log: SequencedEvent[] = [];
  headers = new Map<string, ConversationHeader>([['c1', makeHeader('c1')]]);
  calls: unknown[][] = [];
  /** Resolves eventsAfter only when the test says so (to race appends against a resync). */
  gate: Promise<void> | undefined;
  appendE = new Emitter<{ conversationId: string; events: SequencedEvent[] }>();
  activeE = new Emitter<string | undefined>();
  headerE = new Emitter<ConversationHeader>();
  streamE = new Emitter<{ conversationId: string; delta: StreamDelta }>();
  onDidAppend = this.appendE.event;
  onDidChangeActive = this.activeE.event;
  onDidChangeHeader = this.headerE.event;
  onDidStream = this.streamE.event;
  header(id: string) {
    return this.headers.get(id);
  }
  async eventsAfter(_id: string, afterSeq: number) {
    this.calls.push(['eventsAfter', afterSeq]);
    if (this.gate) await this.gate;
    return this.log.filter((e) => e.seq > afterSeq);
  }
  async eventsBefore(_id: string, beforeSeq: number, max: number) {
    this.calls.push(['eventsBefore', beforeSeq, max]);
    return this.log.filter((e) => e.seq < beforeSeq).slice(-max);
  }
  async eventCount() {
    return this.log.length;
  }
  append(...events: SequencedEvent[]) {
    this.log.push(...events);
    this.appendE.fire({ conversationId: 'c1', events });
  }
  private record =
    (name: string) =>
    async (...args: unknown[]) =>
      void this.calls.push([name, ...args]);
  sendMessage = this.record('sendMessage');
  startTask = this.record('startTask');
  approve = this.record('approve');
  reject = this.record('reject');
  alwaysAllow = this.record('alwaysAllow');
  pause = this.record('pause');
  resume = this.record('resume');
  stop = this.record('stop');
  forkFrom = this.record('forkFrom');
  restoreFiles = this.record('restoreFiles');
  openDiff = this.record('openDiff');
  openInEditor = this.record('openInEditor');
  openSettings = this.record('openSettings');
  setApiKey = this.record('setApiKey');
  async mentionCandidates(query: string) {
    this.calls.push(['mentionCandidates', query]);
    return [{ kind: 'file' as const, label: `src/${query}.ts`, path: `src/${query}.ts` }];
  }
  async imageDataUrl(id: string, url: string) {
    this.calls.push(['imageDataUrl', id, url]);
    return 'data:image/png;base64,iVBORw0K';
  }
  selectModel = this.record('selectModel');
  showSandboxStatus = this.record('showSandboxStatus');
  setMode = this.record('setMode');
  approvePlan = this.record('approvePlan');
  timelineDiff = this.record('timelineDiff');
  timelineOpenFiles = this.record('timelineOpenFiles');
  /** Timeline points wait for `release` (to hold one while more requests arrive). */
  pointGate: Promise<void> | undefined;
  pointOverride: ((seq: number) => unknown) | undefined;
  async timelinePoint(id: string, seq: number): Promise<TimelinePoint> {
    this.calls.push(['timelinePoint', id, seq]);
    if (this.pointGate) await this.pointGate;
    if (seq >= this.log.length) throw new Error(`There is no event ${seq + 1} in this conversation.`);
    if (this.pointOverride) return this.pointOverride(seq) as TimelinePoint;
    return {
      seq,
      eventId: `e${seq}`,
      timestamp: '2026-01-01T00:00:00Z',
      lastSeq: this.log.length - 1,
      status: 'running',
      mode: 'act',
      promptTokens: 1,
      completionTokens: 2,
      cost: 0,
      plan: [],
      files: [{ path: 'a.txt', status: 'M' }],
      filesNotShown: 0,
      filesNote: '1 file changed',
    };
  }
  replayE = new Emitter<{ conversationId: string; report?: ReplayReport }>();
  onDidReplay = this.replayE.event;
}

function setup() {
  const backend = new FakeBackend();
  const posted: HostMessage[] = [];
  const inbox = new Emitter<unknown>();
  const logs: string[] = [];
  const log = {
    info: (m: string) => logs.push(m),
    warn: (m: string) => logs.push(m),
    error: (m: string) => logs.push(m),
  };
  const webview = {
    postMessage: async (m: unknown) => {
      // Everything the host sends must pass the webview's own validation.
      const checked = parseHostMessage(structuredClone(m));
      assert.ok(checked.ok, checked.ok ? '' : checked.error);
      posted.push(checked.value);
      return true;
    },
    onDidReceiveMessage: inbox.event,
  };
  const controller = new ChatController(webview, backend, log);
  const seqs = () => posted.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.seq) : []));
  return { backend, posted, send: (m: unknown) => inbox.fire(m), logs, controller, seqs };
}

describe('protocol: chat controller (host side)', () => {
  it("on ready, sends the header then only the events after the view's last seq, chunked", async () => {
    const t = setup();
    // The view holds up to seq 9 and is still inside the window: it gets exactly what follows.
    const count = VIEW_WINDOW + 5;
    t.backend.log = Array.from({ length: count }, (_, i) => ev(i));
    t.send({ type: 'ready', conversationId: 'c1', lastSeq: 9 });
    await tick();
    assert.equal(t.posted[0]!.type, 'conversation');
    assert.ok(!t.posted.some((m) => m.type === 'window'));
    assert.deepEqual(t.backend.calls[0], ['eventsAfter', 9]);
    const chunks = t.posted.filter((m) => m.type === 'events');
    assert.equal(chunks.length, Math.ceil((count - 10) / SYNC_CHUNK));
    assert.ok(chunks.every((m) => m.type === 'events' && m.events.length <= SYNC_CHUNK));
    assert.equal(t.seqs()[0], 10);
    assert.equal(t.seqs().length, count - 10);
  });

  it('a view starting from nothing gets only the newest events of a long conversation', async () => {
    const t = setup();
    const count = VIEW_WINDOW + 1_234;
    t.backend.log = Array.from({ length: count }, (_, i) => ev(i));
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await tick();
    assert.deepEqual(
      t.posted.slice(0, 2).map((m) => m.type),
      ['conversation', 'window'],
    );
    assert.deepEqual(t.posted[1], { type: 'window', conversationId: 'c1', firstSeq: 1_234 });
    assert.equal(t.seqs()[0], 1_234);
    assert.equal(t.seqs().length, VIEW_WINDOW);

    // A reloaded view that holds too old a prefix starts over from the window too.
    t.send({ type: 'ready', conversationId: 'c1', lastSeq: 10 });
    await tick();
    const again = t.posted.filter((m) => m.type === 'window');
    assert.equal(again.length, 2);
    // One that holds a recent part only gets what it lacks.
    const before = t.posted.length;
    t.send({ type: 'ready', conversationId: 'c1', lastSeq: count - 3 });
    await tick();
    assert.ok(t.posted.slice(before).every((m) => m.type !== 'window'));
    assert.deepEqual(t.seqs().slice(-2), [count - 2, count - 1]);
  });

  it('answers "Show earlier events" with the page before the first event held, for the shown conversation only', async () => {
    const t = setup();
    t.backend.log = Array.from({ length: VIEW_WINDOW + EARLIER_PAGE + 10 }, (_, i) => ev(i));
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await tick();
    const first = EARLIER_PAGE + 10;
    t.send({ type: 'loadEarlier', conversationId: 'c1', beforeSeq: first });
    await tick();
    const earlier = t.posted.at(-1);
    assert.ok(earlier?.type === 'earlier');
    assert.equal(earlier.events.length, EARLIER_PAGE);
    assert.deepEqual([earlier.events[0]!.seq, earlier.events.at(-1)!.seq], [10, first - 1]);
    t.send({ type: 'loadEarlier', conversationId: 'c1', beforeSeq: 10 });
    await tick();
    const rest = t.posted.at(-1);
    assert.ok(rest?.type === 'earlier');
    assert.deepEqual(
      rest.events.map((e) => e.seq),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    const calls = t.backend.calls.length;
    t.send({ type: 'loadEarlier', conversationId: 'other', beforeSeq: 5 });
    t.send({ type: 'loadEarlier', conversationId: 'c1', beforeSeq: -1 });
    await tick();
    assert.equal(t.backend.calls.length, calls, 'refused before reaching the backend');
    assert.equal(t.logs.filter((l) => /loadEarlier/.test(l)).length, 2);
  });

  it('a view that held another conversation gets everything from seq 0', async () => {
    const t = setup();
    t.backend.log = [ev(0), ev(1)];
    t.send({ type: 'ready', conversationId: 'other', lastSeq: 50 });
    await tick();
    assert.deepEqual(t.seqs(), [0, 1]);
  });

  it('posts appended events as deltas, never twice, including appends racing the resync', async () => {
    const t = setup();
    t.backend.log = [ev(0), ev(1)];
    let open!: () => void;
    t.backend.gate = new Promise((r) => (open = r));
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    t.backend.append(ev(2)); // arrives while eventsAfter is pending
    t.backend.gate = undefined;
    open();
    await tick();
    await tick();
    t.backend.append(ev(3), ev(4));
    t.backend.append(ev(4));
    assert.deepEqual(t.seqs(), [0, 1, 2, 3, 4]);
  });

  it('sends nothing while hidden; the reloaded view resyncs from its last seq', async () => {
    const t = setup();
    t.backend.log = [ev(0)];
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await tick();
    t.controller.setVisible(false);
    t.backend.append(ev(1));
    t.backend.streamE.fire({ conversationId: 'c1', delta: { type: 'text', text: 'x' } });
    assert.deepEqual(t.seqs(), [0]);
    const before = t.posted.length;
    t.send({ type: 'ready', conversationId: 'c1', lastSeq: 0 });
    await tick();
    assert.deepEqual(t.backend.calls.at(-1), ['eventsAfter', 0]);
    assert.deepEqual(t.seqs(), [0, 1]);
    assert.ok(t.posted.slice(before).every((m) => m.type !== 'stream'));
  });

  it('switching the active conversation resets the view and resends from 0', async () => {
    const t = setup();
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await tick();
    t.backend.headers.set('c2', makeHeader('c2'));
    t.backend.activeId = 'c2';
    t.backend.log = [ev(0)];
    t.backend.activeE.fire('c2');
    await tick();
    const conv = t.posted.filter((m) => m.type === 'conversation');
    assert.equal(conv.at(-1)?.type === 'conversation' && conv.at(-1)?.header?.id, 'c2');
    t.backend.activeId = undefined;
    t.backend.activeE.fire(undefined);
    await tick();
    const last = t.posted.at(-1);
    assert.ok(last?.type === 'conversation' && last.header === null);
  });

  it('forwards header changes and coalesces stream text', async () => {
    const t = setup();
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await tick();
    t.backend.headerE.fire(makeHeader('c1', ['a1']));
    t.backend.headerE.fire(makeHeader('zz'));
    for (const text of ['Hel', 'lo ', 'world'])
      t.backend.streamE.fire({ conversationId: 'c1', delta: { type: 'text', text } });
    t.backend.streamE.fire({ conversationId: 'c1', delta: { type: 'end' } });
    await new Promise((r) => setTimeout(r, 40));
    const headers = t.posted.filter((m) => m.type === 'header');
    assert.equal(headers.length, 1);
    const streams = t.posted.flatMap((m) => (m.type === 'stream' ? [m.delta] : []));
    assert.deepEqual(streams, [{ type: 'text', text: 'Hello world' }, { type: 'end' }]);
  });

  it('calls the backend only for valid intents on exactly the pending batch; logs the rest', async () => {
    const t = setup();
    t.backend.headers.set('c1', makeHeader('c1', ['a1', 'a2']));
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await tick();
    t.send({ type: 'approve', conversationId: 'c1', actionIds: ['a1'] });
    t.send({ type: 'approve', conversationId: 'c1', actionIds: ['a1', 'a2'], extra: 1 });
    t.send({ type: 'reject', conversationId: 'c9', actionIds: ['a1', 'a2'], reason: '' });
    t.send({ type: 'shell', command: 'rm -rf /' });
    t.send('x'.repeat(1_000_000));
    t.send({
      type: 'sendMessage',
      text: 'x'.repeat(200_000),
      attachActiveFile: false,
      attachSelection: false,
    });
    const made = () => t.backend.calls.filter((c) => c[0] !== 'eventsAfter');
    assert.deepEqual(made(), []);
    assert.equal(t.logs.length, 6);
    assert.ok(t.logs.every((l) => l.length < 800));
    t.send({ type: 'approve', conversationId: 'c1', actionIds: ['a2', 'a1'] });
    t.send({ type: 'reject', conversationId: 'c1', actionIds: ['a1', 'a2'], reason: 'no' });
    t.send({ type: 'alwaysAllow', conversationId: 'c1', actionId: 'a1', commandPrefix: '  npm test ' });
    t.send({ type: 'sendMessage', text: 'hi', attachActiveFile: true, attachSelection: false });
    t.send({ type: 'forkFrom', conversationId: 'c1', eventId: 'e3' });
    t.send({ type: 'restoreFiles', conversationId: 'c1', eventId: 'e3' });
    t.send({ type: 'restoreFiles', conversationId: 'c2', eventId: 'e3' });
    await tick();
    assert.deepEqual(made(), [
      ['approve', 'c1', ['a2', 'a1']],
      ['reject', 'c1', ['a1', 'a2'], 'no'],
      ['alwaysAllow', 'c1', 'a1', 'npm test'],
      ['sendMessage', 'hi', { activeFile: true, selection: false }],
      ['forkFrom', 'c1', 'e3'],
      ['restoreFiles', 'c1', 'e3'],
    ]);
  });

  it('answers mention queries with their request id, passes attachments on, serves images of the shown conversation only', async () => {
    const t = setup();
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await tick();
    t.send({ type: 'mentionQuery', requestId: 7, query: 'app' });
    await tick();
    assert.deepEqual(t.posted.at(-1), {
      type: 'mentionResults',
      requestId: 7,
      items: [{ kind: 'file', label: 'src/app.ts', path: 'src/app.ts' }],
    });
    const attachments = [{ kind: 'file', path: 'src/app.ts' }, { kind: 'problems' }, { kind: 'terminal' }];
    t.send({
      type: 'sendMessage',
      text: 'fix',
      attachActiveFile: false,
      attachSelection: false,
      attachments,
    });
    t.send({ type: 'loadImage', conversationId: 'c9', url: 'logbook-image:x.png' });
    t.send({ type: 'loadImage', conversationId: 'c1', url: 'logbook-image:y.png' });
    await tick();
    const made = t.backend.calls.filter((c) => c[0] !== 'eventsAfter');
    assert.deepEqual(made.slice(1), [
      ['sendMessage', 'fix', { activeFile: false, selection: false, mentions: attachments }],
      ['imageDataUrl', 'c1', 'logbook-image:y.png'],
    ]);
    assert.deepEqual(t.posted.at(-1), {
      type: 'image',
      url: 'logbook-image:y.png',
      dataUrl: 'data:image/png;base64,iVBORw0K',
    });
  });

  it("opens only the model's settings and the API key command from a failed call's error card", async () => {
    const t = setup();
    t.send({ type: 'openSettings', setting: 'logbook.model.baseURL' });
    t.send({ type: 'setApiKey' });
    t.send({ type: 'openSettings', setting: 'terminal.integrated.shell.linux' });
    t.send({ type: 'setApiKey', key: 'sk-from-the-webview' });
    await tick();
    assert.deepEqual(t.backend.calls, [['openSettings', 'logbook.model.baseURL'], ['setApiKey']]);
    assert.equal(t.logs.filter((l) => /dropped an invalid message/.test(l)).length, 2);
  });

  it('opens the model picker from the header, with no model name taken from the webview', async () => {
    const t = setup();
    t.send({ type: 'selectModel' });
    t.send({ type: 'selectModel', model: 'attacker-model' });
    await tick();
    assert.deepEqual(t.backend.calls, [['selectModel']]);
    assert.equal(t.logs.filter((l) => /dropped an invalid message/.test(l)).length, 1);
  });

  it('shows the sandbox status from the chat`s notice, taking nothing else from the webview', async () => {
    const t = setup();
    t.send({ type: 'showSandboxStatus' });
    t.send({ type: 'showSandboxStatus', setting: 'off' });
    await tick();
    assert.deepEqual(t.backend.calls, [['showSandboxStatus']]);
    assert.equal(t.logs.filter((l) => /dropped an invalid message/.test(l)).length, 1);
  });

  it('repairs what the webview would refuse: malformed events, out-of-range header numbers, long names', async () => {
    const t = setup();
    t.backend.headers.set('c1', {
      ...makeHeader('c1', ['a'.repeat(500), 'a1']),
      cost: Number.NaN,
      promptTokens: -3,
      title: 'T'.repeat(5_000),
    });
    t.backend.log = [
      ev(0),
      { seq: 1, event: { kind: '', id: 'x' } },
      { seq: 2, event: { kind: 'K', id: 'i'.repeat(300) } },
      ev(3),
    ];
    t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await tick();
    const conv = t.posted[0];
    assert.ok(conv?.type === 'conversation' && conv.header);
    assert.equal(conv.header.cost, 0);
    assert.equal(conv.header.promptTokens, 0);
    assert.deepEqual(conv.header.pendingActionIds, ['a1']);
    const events = t.posted.flatMap((m) => (m.type === 'events' ? m.events : []));
    assert.deepEqual(
      events.map((e) => e.event.kind),
      ['MessageEvent', 'CorruptRecord', 'CorruptRecord', 'MessageEvent'],
    );
    t.backend.streamE.fire({
      conversationId: 'c1',
      delta: { type: 'tool_call', index: 0, name: 'n'.repeat(400), argumentsDelta: '{' },
    });
    await new Promise((r) => setTimeout(r, 30));
    const stream = t.posted.at(-1);
    assert.ok(
      stream?.type === 'stream' && stream.delta.type === 'tool_call' && stream.delta.name?.length === 200,
    );
  });

  describe('timeline and replay', () => {
    async function shown() {
      const t = setup();
      t.backend.log = Array.from({ length: 10 }, (_, i) => ev(i));
      t.send({ type: 'ready', conversationId: null, lastSeq: -1 });
      await tick();
      return t;
    }
    const points = (t: ReturnType<typeof setup>) =>
      t.posted.flatMap((m) => (m.type === 'timelinePoint' ? [m] : []));

    it('answers a seek with the point, and only the newest of the seeks made while one was computed', async () => {
      const t = await shown();
      let release!: () => void;
      t.backend.pointGate = new Promise((r) => (release = r));
      for (const [requestId, seq] of [
        [1, 3],
        [2, 4],
        [3, 5],
        [4, 6],
      ] as const)
        t.send({ type: 'timelineSeek', conversationId: 'c1', requestId, seq });
      await tick();
      release();
      await tick();
      await tick();
      assert.deepEqual(
        points(t).map((m) => [m.requestId, m.point?.seq]),
        [
          [1, 3],
          [4, 6],
        ],
      );
      assert.deepEqual(
        t.backend.calls.filter((c) => c[0] === 'timelinePoint').map((c) => c[2]),
        [3, 6],
      );
    });

    it('says why when there is no point, and refuses a point that does not fit the protocol', async () => {
      const t = await shown();
      t.send({ type: 'timelineSeek', conversationId: 'c1', requestId: 1, seq: 50 });
      await tick();
      assert.deepEqual(points(t)[0], {
        type: 'timelinePoint',
        conversationId: 'c1',
        requestId: 1,
        point: null,
        error: 'There is no event 51 in this conversation.',
      });
      t.backend.pointOverride = (seq) => ({ seq, sneaky: '<script>' });
      t.send({ type: 'timelineSeek', conversationId: 'c1', requestId: 2, seq: 2 });
      await tick();
      assert.equal(points(t)[1]!.point, null);
      assert.match(points(t)[1]!.error ?? '', /could not be shown/);
    });

    it('refuses seeks, diffs and file opens for a conversation not shown, and malformed ones', async () => {
      const t = await shown();
      t.send({ type: 'timelineSeek', conversationId: 'other', requestId: 1, seq: 1 });
      t.send({ type: 'timelineDiff', conversationId: 'other', seq: 1, path: 'a.txt', against: 'now' });
      t.send({ type: 'timelineOpenFiles', conversationId: 'other', seq: 1 });
      t.send({ type: 'timelineSeek', conversationId: 'c1', requestId: 1, seq: -1 });
      t.send({ type: 'timelineDiff', conversationId: 'c1', seq: 1, path: 'a.txt', against: 'elsewhere' });
      t.send({ type: 'timelineDiff', conversationId: 'c1', seq: 1, path: '', against: 'now' });
      t.send({ type: 'timelineOpenFiles', conversationId: 'c1', seq: 1, extra: true });
      await tick();
      assert.deepEqual(points(t), []);
      assert.deepEqual(
        t.backend.calls.filter((c) => String(c[0]).startsWith('timeline')),
        [],
      );
      assert.equal(t.logs.filter((l) => /refused|dropped an invalid message/.test(l)).length, 7);
      t.send({ type: 'timelineDiff', conversationId: 'c1', seq: 1, path: 'a.txt', against: 'start' });
      t.send({ type: 'timelineOpenFiles', conversationId: 'c1', seq: 1 });
      await tick();
      assert.deepEqual(
        t.backend.calls.filter((c) => String(c[0]).startsWith('timeline')),
        [
          ['timelineDiff', 'c1', 1, 'a.txt', 'start'],
          ['timelineOpenFiles', 'c1', 1],
        ],
      );
    });

    it("posts a replay's start and report for the conversation shown only", async () => {
      const t = await shown();
      t.backend.replayE.fire({ conversationId: 'c1' });
      t.backend.replayE.fire({ conversationId: 'other', report: { outcome: 'same', actions: 1 } });
      t.backend.replayE.fire({ conversationId: 'c1', report: { outcome: 'same', actions: 2 } });
      assert.deepEqual(
        t.posted.filter((m) => m.type === 'replay'),
        [
          { type: 'replay', conversationId: 'c1' },
          { type: 'replay', conversationId: 'c1', report: { outcome: 'same', actions: 2 } },
        ],
      );
    });
  });
});

describe('every intent the chat can send reaches the backend', () => {
  // One message of each intent type: the `Record` makes the compiler ask for a new type's sample.
  const samples: { [T in ChatIntent['type']]: Extract<ChatIntent, { type: T }> } = {
    sendMessage: { type: 'sendMessage', text: 'hi', attachActiveFile: false, attachSelection: false },
    setMode: { type: 'setMode', conversationId: 'c1', mode: 'plan' },
    approvePlan: {
      type: 'approvePlan',
      conversationId: 'c1',
      tasks: [{ title: 'a', status: 'todo', notes: '' }],
    },
    startTask: { type: 'startTask' },
    approve: { type: 'approve', conversationId: 'c1', actionIds: ['a1'] },
    reject: { type: 'reject', conversationId: 'c1', actionIds: ['a1'], reason: 'no' },
    alwaysAllow: { type: 'alwaysAllow', conversationId: 'c1', actionId: 'a1', commandPrefix: 'npm test' },
    pause: { type: 'pause', conversationId: 'c1' },
    resume: { type: 'resume', conversationId: 'c1' },
    stop: { type: 'stop', conversationId: 'c1' },
    forkFrom: { type: 'forkFrom', conversationId: 'c1', eventId: 'e1' },
    restoreFiles: { type: 'restoreFiles', conversationId: 'c1', eventId: 'e1' },
    openDiff: { type: 'openDiff', conversationId: 'c1', actionId: 'a1' },
    openInEditor: { type: 'openInEditor' },
    openSettings: { type: 'openSettings', setting: 'logbook.model.baseURL' },
    setApiKey: { type: 'setApiKey' },
    selectModel: { type: 'selectModel' },
    showSandboxStatus: { type: 'showSandboxStatus' },
    timelineDiff: { type: 'timelineDiff', conversationId: 'c1', seq: 1, path: 'a.txt', against: 'start' },
    timelineOpenFiles: { type: 'timelineOpenFiles', conversationId: 'c1', seq: 1 },
  };

  for (const [type, msg] of Object.entries(samples)) {
    it(`${type}: one call of the backend's ${type}`, async () => {
      const backend = new FakeBackend();
      await performIntent(backend, msg as ChatIntent);
      assert.deepEqual(
        backend.calls.map((c) => c[0]),
        [type],
      );
    });
  }

  it('an intent type no case handles is a clear error, never a silent success', async () => {
    await assert.rejects(
      performIntent(new FakeBackend(), { type: 'somethingNew' } as unknown as ChatIntent),
      /No handler for the chat's "somethingNew" request/,
    );
  });
});
