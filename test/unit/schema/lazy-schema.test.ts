import * as assert from 'node:assert/strict';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { lazySchema } from '../../../src/core/schema/lazy-schema';

describe('lazySchema', () => {
  it('builds nothing until the schema is first used, then builds it once', () => {
    let builds = 0;
    const Name = lazySchema(() => {
      builds++;
      return z.string().min(1);
    });
    const Person = lazySchema(() => z.object({ name: Name, age: z.number().int() }));
    assert.equal(builds, 0, 'declaring and composing build nothing');
    assert.deepEqual(Person.parse({ name: 'Ada', age: 36 }), { name: 'Ada', age: 36 });
    assert.equal(Name.parse('Bo'), 'Bo');
    assert.equal(builds, 1);
  });

  it('refuses and reports exactly as the schema it stands for', () => {
    const build = () => z.object({ id: z.guid(), tags: z.array(z.enum(['a', 'b'])).max(2) }).strict();
    const lazy = lazySchema(build);
    for (const input of [
      { id: 'x', tags: ['c'] },
      { id: '00000000-0000-0000-0000-000000000000', tags: [], more: 1 },
      null,
      'text',
    ]) {
      const want = build().safeParse(input);
      const got = lazy.safeParse(input);
      assert.equal(got.success, want.success);
      assert.deepEqual(got.error?.issues, want.error?.issues);
    }
  });

  it('composes, narrows and is told apart as the schema itself', () => {
    const Kind = lazySchema(() => z.enum(['user', 'agent']));
    const A = lazySchema(() => z.object({ type: z.literal('a'), kind: Kind }));
    const B = lazySchema(() => z.object({ type: z.literal('b'), n: z.number() }));
    const Either = lazySchema(() => z.discriminatedUnion('type', [A, B]));
    assert.deepEqual(Either.parse({ type: 'b', n: 1 }), { type: 'b', n: 1 });
    assert.equal(Either.safeParse({ type: 'a', kind: 'robot' }).success, false);
    assert.ok(A instanceof z.ZodObject);
    assert.deepEqual(Object.keys(A.shape), ['type', 'kind']);
    assert.deepEqual(Kind.options, ['user', 'agent']);
    assert.equal(A.extend({ x: z.string() }).safeParse({ type: 'a', kind: 'user' }).success, false);
  });

  it('works with zod/mini schemas (the protocol’s)', () => {
    const Message = lazySchema(() =>
      zm.object({ type: zm.literal('ready'), id: zm.string().check(zm.maxLength(3)) }),
    );
    assert.equal(zm.safeParse(Message, { type: 'ready', id: 'abc' }).success, true);
    assert.equal(zm.safeParse(Message, { type: 'ready', id: 'abcd' }).success, false);
  });
});
