import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  type ConversationHeader,
  type HostMessage,
  LIMITS,
  parseHostMessage,
  parseWebviewMessage,
  type WebviewMessage,
} from '../../../src/protocol/messages';

const CID = '9b2f6a1e-0c4d-4a3b-9f7e-2d5c8b1a0e6f';
const AID = 'e54cbba2-3be2-4494-aa13-83af6044c5a7';

const header: ConversationHeader = {
  id: CID,
  title: 'Fix the tests',
  status: 'waiting_for_confirmation',
  promptTokens: 71474,
  completionTokens: 1155,
  cachedTokens: 34536,
  cost: 0.0123,
  pendingActionIds: [AID],
  readOnly: false,
};

const validWebview: WebviewMessage[] = [
  { type: 'ready', conversationId: null, lastSeq: -1 },
  { type: 'ready', conversationId: CID, lastSeq: 41 },
  { type: 'sendMessage', text: 'hello', attachActiveFile: true, attachSelection: false },
  { type: 'startTask' },
  { type: 'approve', conversationId: CID, actionIds: [AID] },
  { type: 'reject', conversationId: CID, actionIds: [AID], reason: '' },
  { type: 'alwaysAllow', conversationId: CID, actionId: AID, commandPrefix: 'npm test' },
  { type: 'pause', conversationId: CID },
  { type: 'resume', conversationId: CID },
  { type: 'stop', conversationId: CID },
  { type: 'forkFrom', conversationId: CID, eventId: AID },
  { type: 'openDiff', conversationId: CID, actionId: AID },
  { type: 'openInEditor' },
];

const validHost: HostMessage[] = [
  { type: 'conversation', header: null },
  { type: 'conversation', header },
  { type: 'header', header: { ...header, pendingActionIds: [] } },
  {
    type: 'events',
    conversationId: CID,
    events: [{ seq: 0, event: { kind: 'MessageEvent', id: AID, source: 'user', extra: { deep: [1] } } }],
  },
  { type: 'stream', conversationId: CID, delta: { type: 'text', text: 'Hel' } },
  {
    type: 'stream',
    conversationId: CID,
    delta: { type: 'tool_call', index: 0, name: 'terminal', argumentsDelta: '{"co' },
  },
  { type: 'stream', conversationId: CID, delta: { type: 'end' } },
];

const big = (n: number) => 'x'.repeat(n);
const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

describe('protocol: messages', () => {
  it('accepts every valid webview message unchanged', () => {
    for (const m of validWebview) {
      const r = parseWebviewMessage(m);
      assert.ok(r.ok, `${m.type}: ${r.ok ? '' : r.error}`);
      assert.deepEqual(r.value, m);
    }
  });

  it('accepts every valid host message and keeps unknown event fields', () => {
    for (const m of validHost) {
      const r = parseHostMessage(m);
      assert.ok(r.ok, `${m.type}: ${r.ok ? '' : r.error}`);
      assert.deepEqual(r.value, m);
    }
  });

  const hostileWebview: [string, unknown][] = [
    ['not an object', 'sendMessage'],
    ['null', null],
    ['array', [{ type: 'startTask' }]],
    ['unknown type', { type: 'runShell', command: 'rm -rf /' }],
    ['type of wrong type', { type: 7 }],
    ['missing type', { text: 'hi' }],
    ['extra field', { type: 'startTask', command: 'rm -rf /' }],
    ['__proto__ key', JSON.parse('{"type":"openInEditor","__proto__":{"polluted":true}}')],
    ['empty text', { type: 'sendMessage', text: '', attachActiveFile: false, attachSelection: false }],
    [
      'huge text',
      {
        type: 'sendMessage',
        text: big(LIMITS.messageText + 1),
        attachActiveFile: false,
        attachSelection: false,
      },
    ],
    [
      'text not a string',
      { type: 'sendMessage', text: { toString: 1 }, attachActiveFile: false, attachSelection: false },
    ],
    ['flags not booleans', { type: 'sendMessage', text: 'x', attachActiveFile: 'yes', attachSelection: 0 }],
    ...(
      [
        ['an unknown attachment kind', { kind: 'command', path: 'rm -rf /' }],
        ['a file attachment without a path', { kind: 'file', path: '' }],
        ['a non-http URL', { kind: 'url', url: 'file:///etc/passwd' }],
        ['a URL with spaces', { kind: 'url', url: 'https://a b' }],
        ['an image that is not base64', { kind: 'image', data: '<svg onload=alert(1)>' }],
        ['an image over the size limit', { kind: 'image', data: 'A'.repeat(LIMITS.imageBase64 + 4) }],
        ['an attachment with an extra field', { kind: 'diff', command: 'x' }],
      ] as const
    ).map(([what, attachment]): [string, unknown] => [
      what,
      {
        type: 'sendMessage',
        text: 'x',
        attachActiveFile: false,
        attachSelection: false,
        attachments: [attachment],
      },
    ]),
    [
      'too many images',
      {
        type: 'sendMessage',
        text: 'x',
        attachActiveFile: false,
        attachSelection: false,
        attachments: Array(LIMITS.images + 1).fill({ kind: 'image', data: 'iVBORw0K' }),
      },
    ],
    ['a mention query too long', { type: 'mentionQuery', requestId: 1, query: big(LIMITS.mentionQuery + 1) }],
    ['loadImage without conversation', { type: 'loadImage', url: 'logbook-image:x' }],
    ['approve without ids', { type: 'approve', conversationId: CID, actionIds: [] }],
    ['approve with a number id', { type: 'approve', conversationId: CID, actionIds: [1] }],
    [
      'approve with too many ids',
      { type: 'approve', conversationId: CID, actionIds: Array(LIMITS.actionIds + 1).fill(AID) },
    ],
    ['approve with a huge id', { type: 'approve', conversationId: CID, actionIds: [big(LIMITS.id + 1)] }],
    ['reject without reason', { type: 'reject', conversationId: CID, actionIds: [AID] }],
    [
      'reject with a huge reason',
      { type: 'reject', conversationId: CID, actionIds: [AID], reason: big(LIMITS.rejectReason + 1) },
    ],
    ['blank allow prefix', { type: 'alwaysAllow', conversationId: CID, actionId: AID, commandPrefix: '   ' }],
    [
      'huge allow prefix',
      {
        type: 'alwaysAllow',
        conversationId: CID,
        actionId: AID,
        commandPrefix: big(LIMITS.commandPrefix + 1),
      },
    ],
    ['pause without conversation', { type: 'pause' }],
    ['empty conversation id', { type: 'stop', conversationId: '' }],
    ['ready with fractional seq', { type: 'ready', conversationId: null, lastSeq: 1.5 }],
    ['ready with seq below -1', { type: 'ready', conversationId: null, lastSeq: -2 }],
    ['ready with NaN', { type: 'ready', conversationId: null, lastSeq: NaN }],
  ];

  for (const [name, raw] of hostileWebview) {
    it(`rejects a hostile webview message: ${name}`, () => {
      const r = parseWebviewMessage(raw);
      assert.equal(r.ok, false);
      if (!r.ok) assert.ok(r.error.length <= 600, 'the log line stays short');
    });
  }

  const hostileHost: [string, unknown][] = [
    ['unknown type', { type: 'eval', code: 'alert(1)' }],
    ['event without kind', { type: 'events', conversationId: CID, events: [{ seq: 0, event: { id: AID } }] }],
    ['event without id', { type: 'events', conversationId: CID, events: [{ seq: 0, event: { kind: 'X' } }] }],
    [
      'negative seq',
      { type: 'events', conversationId: CID, events: [{ seq: -1, event: { kind: 'X', id: AID } }] },
    ],
    [
      'huge kind',
      { type: 'events', conversationId: CID, events: [{ seq: 0, event: { kind: big(500), id: AID } }] },
    ],
    [
      'too many events',
      {
        type: 'events',
        conversationId: CID,
        events: Array(LIMITS.eventsPerMessage + 1).fill({ seq: 0, event: { kind: 'X', id: 'a' } }),
      },
    ],
    ['header with negative cost', { type: 'header', header: { ...header, cost: -1 } }],
    ['header with extra field', { type: 'header', header: { ...header, html: '<img onerror>' } }],
    ['header with string tokens', { type: 'header', header: { ...header, promptTokens: '12' } }],
    ['unknown delta', { type: 'stream', conversationId: CID, delta: { type: 'html', html: '<b>' } }],
    [
      'huge delta',
      { type: 'stream', conversationId: CID, delta: { type: 'text', text: big(LIMITS.streamText + 1) } },
    ],
  ];

  for (const [name, raw] of hostileHost) {
    it(`rejects a hostile host message: ${name}`, () => {
      assert.equal(parseHostMessage(raw).ok, false);
    });
  }

  it('fuzz: arbitrary values never throw, and anything accepted has a known type', () => {
    const types = new Set(validWebview.map((m) => m.type));
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (raw) => {
        const w = parseWebviewMessage(raw);
        if (w.ok) assert.ok(types.has(w.value.type));
        parseHostMessage(raw);
      }),
      { numRuns: 2000 },
    );
  });

  it('fuzz: a valid message with one field replaced by a value of another type is rejected', () => {
    const wrongValue = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
    );
    const withFields = validWebview.filter((m) => Object.keys(m).length > 1);
    fc.assert(
      fc.property(fc.constantFrom(...withFields), fc.nat(), wrongValue, (msg, pick, value) => {
        const keys = Object.keys(msg).filter((k) => k !== 'type');
        const key = keys[pick % keys.length]!;
        const original = (msg as Record<string, unknown>)[key];
        // A value of the same JSON type may be valid (another number, another id): only type changes must fail.
        if (jsonType(original) === jsonType(value)) return;
        if (key === 'conversationId' && msg.type === 'ready' && value === null) return;
        const r = parseWebviewMessage({ ...msg, [key]: value });
        assert.equal(r.ok, false, `${msg.type}.${key} = ${JSON.stringify(value)} was accepted`);
      }),
      { numRuns: 1500 },
    );
  });

  it('fuzz: strings past their bound are rejected, strings within it are accepted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: LIMITS.messageText + 50 }), (n) => {
        const r = parseWebviewMessage({
          type: 'sendMessage',
          text: big(n),
          attachActiveFile: false,
          attachSelection: false,
        });
        assert.equal(r.ok, n <= LIMITS.messageText);
      }),
      { numRuns: 60 },
    );
  });
});
