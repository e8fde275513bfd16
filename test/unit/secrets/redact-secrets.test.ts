import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  llmSecrets,
  SecretGuard,
  SecretRedactor,
  StreamRedactor,
  type StreamEvent,
} from '../../../src/core/secrets';

const KEY = 'sk-live-0123456789abcdef';
const MARKER = '[redacted API key]';
const secrets = [{ name: 'API key', value: KEY }];

describe('SecretRedactor', () => {
  const r = new SecretRedactor(secrets);

  it('replaces every occurrence with a marker naming the secret', () => {
    assert.equal(r.redactText(`a ${KEY} b ${KEY}`), `a ${MARKER} b ${MARKER}`);
  });

  it('redacts strings and keys anywhere in a JSON value, and returns the same value when clean', () => {
    const clean = { a: ['x', { b: 1 }], c: null };
    assert.equal(r.redactValue(clean), clean);
    const dirty = { a: ['x', { b: `=${KEY}` }], [KEY]: true, n: 3 };
    assert.deepEqual(r.redactValue(dirty), { a: ['x', { b: `=${MARKER}` }], [MARKER]: true, n: 3 });
    assert.equal(dirty.a[0], 'x', 'the input is not changed');
  });

  it('also finds a secret escaped inside JSON text (a tool call`s raw arguments)', () => {
    const odd = new SecretRedactor([{ name: 'TOKEN', value: 'pa"ss\\word-42' }]);
    const args = JSON.stringify({ command: 'echo pa"ss\\word-42' });
    assert.equal(odd.redactText(args), JSON.stringify({ command: 'echo [redacted TOKEN]' }));
  });

  it('ignores secrets shorter than 8 characters and replaces the longest match first', () => {
    const mixed = new SecretRedactor([
      { name: 'SHORT', value: 'abc' },
      { name: 'PART', value: 'sk-live-0123' },
      { name: 'WHOLE', value: KEY },
    ]);
    assert.equal(mixed.redactText(`abc ${KEY} sk-live-0123`), 'abc [redacted WHOLE] [redacted PART]');
    assert.ok(new SecretRedactor([{ name: 'E', value: '' }]).empty);
  });

  it('llmSecrets: the API key and the values of credential headers', () => {
    assert.deepEqual(
      llmSecrets({
        apiKey: KEY,
        extraHeaders: {
          'api-key': 'azure-secret-999',
          'X-Title': 'Logbook',
          Authorization: 'Bearer tok-12345678',
        },
      }),
      [
        { name: 'API key', value: KEY },
        { name: 'api-key header', value: 'azure-secret-999' },
        { name: 'Authorization header', value: 'Bearer tok-12345678' },
        { name: 'Authorization header', value: 'tok-12345678' },
      ],
    );
    assert.deepEqual(llmSecrets({ apiKey: '' }), []);
  });

  it("llmSecrets: a local server's published stand-in key is no secret, and text naming it stays as it is", () => {
    for (const apiKey of ['lm-studio', 'sk-no-key-required', 'EMPTY', 'not-needed', 'Placeholder']) {
      assert.deepEqual(llmSecrets({ apiKey }), [], apiKey);
    }
    const r = new SecretRedactor(llmSecrets({ apiKey: 'lm-studio' }));
    assert.equal(r.redactText('Start lm-studio, then load a model.'), 'Start lm-studio, then load a model.');
    // A real key that merely starts like one is still a secret.
    assert.deepEqual(llmSecrets({ apiKey: 'lm-studio-7f3a9c2e' }), [
      { name: 'API key', value: 'lm-studio-7f3a9c2e' },
    ]);
  });
});

describe('StreamRedactor: a key split over streamed deltas never shows', () => {
  const shown = (deltas: StreamEvent[]) => {
    const s = new StreamRedactor(() => new SecretRedactor(secrets));
    const out = deltas.flatMap((d) => s.push(d));
    const text = (type: string) => out.map((d) => (d.type === type && 'text' in d ? d.text : '')).join('');
    const args = out.map((d) => (d.type === 'tool_call' ? d.argumentsDelta : '')).join('');
    return { out, text: text('text'), reasoning: text('reasoning'), args };
  };

  it('holds back a possible start of the key until the next delta shows what follows', () => {
    const { text, out } = shown([
      { type: 'text', text: 'the key is sk-li' },
      { type: 'text', text: 've-0123456789ab' },
      { type: 'text', text: 'cdef, and sk-' },
      { type: 'text', text: 'not-a-key' },
      { type: 'end' },
    ]);
    assert.equal(text, `the key is ${MARKER}, and sk-not-a-key`);
    assert.equal(out.at(-1)?.type, 'end');
  });

  it('keeps each stream apart and names a tool call in its first delta even when its text is held', () => {
    const { out, args, reasoning } = shown([
      { type: 'tool_call', index: 0, id: 'c1', name: 'terminal', argumentsDelta: '{"command":"echo sk-live' },
      { type: 'reasoning', text: 'thinking' },
      { type: 'tool_call', index: 0, argumentsDelta: '-0123456789abcdef"}' },
      { type: 'end' },
    ]);
    assert.equal(args, `{"command":"echo ${MARKER}"}`);
    assert.equal(reasoning, 'thinking');
    const first = out[0];
    assert.ok(first?.type === 'tool_call' && first.name === 'terminal' && first.id === 'c1');
  });

  it('a stream that ends on a prefix of the key shows it at the end', () => {
    assert.equal(
      shown([{ type: 'text', text: 'ends with sk-live' }, { type: 'end' }]).text,
      'ends with sk-live',
    );
  });

  it('shows the same text as redacting it whole, however the text is cut', () => {
    const piece = fc.constantFrom('sk-', 'live-', '0123', '456789abcdef', KEY, 'x', ' ', 'sk-live-0');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (pieces, cuts) => {
          const whole = pieces.join('');
          const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
          const deltas: StreamEvent[] = [];
          let from = 0;
          for (const p of [...points, whole.length]) {
            deltas.push({ type: 'text', text: whole.slice(from, p) });
            from = p;
          }
          const { text } = shown([...deltas, { type: 'end' }]);
          assert.equal(text, new SecretRedactor(secrets).redactText(whole));
          assert.ok(!text.includes(KEY));
        },
      ),
    );
  });
});

describe('SecretGuard', () => {
  it('redacts and freezes an event; an event without secrets stays the same object', () => {
    const guard = new SecretGuard(() => secrets);
    const clean = Object.freeze({ kind: 'X', text: 'hello' });
    assert.equal(guard.event(clean), clean);
    const redacted = guard.event({ kind: 'X', text: `key ${KEY}`, nested: { list: [KEY] } });
    assert.deepEqual(redacted, { kind: 'X', text: `key ${MARKER}`, nested: { list: [MARKER] } });
    assert.ok(Object.isFrozen(redacted) && Object.isFrozen(redacted.nested.list));
  });

  it('reads the host`s list at each use, so a key set later is redacted from then on', () => {
    let list: { name: string; value: string }[] = [];
    const guard = new SecretGuard(() => list);
    assert.equal(guard.event({ t: KEY }).t, KEY);
    list = secrets;
    assert.equal(guard.event({ t: KEY }).t, MARKER);
  });
});

describe('SecretRedactor: encoded forms of a secret', () => {
  const r = new SecretRedactor(secrets);
  const leaks = (text: string) => {
    const out = r.redactText(text);
    // What is left decodes to no copy of the key.
    const decoded = [
      Buffer.from(out.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1'),
      Buffer.from(out.replace(/[^A-Za-z0-9\-_]/g, ''), 'base64url').toString('latin1'),
      Buffer.from(out.replace(/[^0-9a-fA-F]/g, ''), 'hex').toString('latin1'),
    ];
    return { out, leaked: decoded.some((d) => d.includes(KEY)) };
  };

  it('catches the key as base64 and base64url whatever bytes come before it, and as hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 7 }), fc.uint8Array({ maxLength: 7 }), (before, after) => {
        const raw = Buffer.concat([Buffer.from(before), Buffer.from(KEY), Buffer.from(after)]);
        for (const text of [
          raw.toString('base64'),
          raw.toString('base64url'),
          raw.toString('hex'),
          raw.toString('hex').toUpperCase(),
        ]) {
          const { out, leaked } = leaks(text);
          assert.ok(out.includes(MARKER), `no marker in ${out}`);
          assert.ok(!leaked, `the key still decodes from ${out}`);
        }
      }),
    );
  });

  it('leaves ordinary base64 and hex alone', () => {
    const text = `${Buffer.from('hello world, nothing secret here').toString('base64')} ${Buffer.from('abc').toString('hex')}`;
    assert.equal(r.redactText(text), text);
  });
});
