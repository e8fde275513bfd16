// stringifyJson must write exactly what JSON.stringify writes: the log's records, checksums and
// exports depend on it. Long strings take the fast path, so the generators make many of them.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { quoteJson, stringifyJson } from '../../../src/core/json/stringify';
import { generateEvents } from '../../../bench/events';

/** Characters that stress escaping: controls, quotes, backslashes, surrogates (paired and lone), non-ASCII. */
const tricky = fc.constantFrom(
  '\\',
  '"',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u0007',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u2028',
  '\u00e9',
  '\ud83d\ude00',
  '\ud800',
  '\udfff',
  '/',
  ' ',
);
const plain = fc.string({ minLength: 0, maxLength: 40 });
/** Long strings (past the fast-path threshold) built from runs of ordinary text and tricky characters. */
const longText = fc
  .array(fc.oneof({ weight: 4, arbitrary: plain }, { weight: 1, arbitrary: tricky }), {
    minLength: 10,
    maxLength: 120,
  })
  .map((parts) => parts.join('').padEnd(300, 'x'));
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  longText,
  fc.string({ unit: 'binary', minLength: 256, maxLength: 600 }),
);

describe('stringifyJson', () => {
  it('quotes any string exactly like JSON.stringify (short and long, any UTF-16)', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        assert.equal(quoteJson(s), JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes any JSON value exactly like JSON.stringify', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        anyText,
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.array(tie('node'), { maxLength: 5 }),
        fc.dictionary(anyText, tie('node'), { maxKeys: 5 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        assert.equal(stringifyJson(v), JSON.stringify(v));
      }),
      { numRuns: 1000 },
    );
  });

  it('follows JSON.stringify for toJSON, class instances, boxed values, holes and functions', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const keyed = { toJSON: (key: string) => `key=${key}` };
    const cases: unknown[] = [
      new Date(0),
      { when: new Date(1e12), list: [new Date(2e12), keyed], keyed },
      new Point(1, 2),
      [new Number(3), new String('s'.repeat(300)), new Boolean(false)],
      [1, , 3],
      { f: () => 1, s: Symbol('x'), u: undefined, n: NaN, i: -Infinity, z: -0 },
      Object.create(null, { a: { value: 1, enumerable: true }, b: { value: 2, enumerable: false } }),
      { 2: 'two', 1: 'one', b: 'b', a: 'a' },
      undefined,
      () => 1,
    ];
    for (const c of cases) assert.equal(stringifyJson(c), JSON.stringify(c));
  });

  it('throws what JSON.stringify throws (cycles, BigInt)', () => {
    const cyclic: Record<string, unknown> = { a: 'x'.repeat(300) };
    cyclic.self = cyclic;
    assert.throws(() => stringifyJson(cyclic), TypeError);
    assert.throws(() => stringifyJson({ n: 1n }), TypeError);
  });

  it('matches on the benchmark events (long tool output with newlines)', () => {
    const { events } = generateEvents(300, 7);
    for (const e of events) assert.equal(stringifyJson(e), JSON.stringify(e));
  });
});
