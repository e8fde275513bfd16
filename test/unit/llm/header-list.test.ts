// HeaderList and ModelResponse stand in for Node's Headers and Response on the model's requests and
// answers (their first use loads Node's fetch stack): they must read as Node's do where the SDK and
// a fetch read them.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeaderList } from '../../../src/core/llm/header-list';
import { ModelResponse } from '../../../src/core/llm/model-response';

/** What Node's fetch and Headers take as headers. */
type FetchHeaders = NonNullable<Parameters<typeof fetch>[1]>['headers'];

/** The same steps on Node's Headers and on a HeaderList: what each then lists. */
function both(steps: (h: Pick<Headers, 'append' | 'set' | 'delete'>) => void, init?: Record<string, string>) {
  const node = new Headers(init);
  const ours = new HeaderList(init);
  steps(node);
  steps(ours);
  return { node: [...node.entries()], ours: [...ours.entries()], ourList: ours, nodeList: node };
}

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });
}

describe('HeaderList, as Node’s Headers', () => {
  it('lower-cases names, joins repeated ones with ", ", trims values and lists entries by name', () => {
    const r = both(
      (h) => {
        h.append('X-Beta', ' two ');
        h.append('x-beta', 'three');
        h.set('Authorization', 'Bearer k');
        h.append('accept', 'application/json');
        h.delete('Content-Type');
      },
      { 'Content-Type': 'text/plain', 'X-Alpha': '1' },
    );
    assert.deepEqual(r.ours, r.node);
    assert.equal(r.ourList.get('X-BETA'), r.nodeList.get('X-BETA'));
    assert.equal(r.ourList.get('missing'), null);
    assert.equal(r.ourList.has('authorization'), true);
  });

  it('takes another list, pairs or a record, and a fetch takes it as its headers', () => {
    const ours = new HeaderList([['A', '1']]);
    assert.deepEqual([...new HeaderList(ours)], [['a', '1']]);
    assert.deepEqual([...new HeaderList(new Headers({ B: '2' }))], [['b', '2']]);
    assert.deepEqual([...new Headers(ours as unknown as FetchHeaders)], [['a', '1']]);
    const seen: string[] = [];
    ours.forEach((value, name) => seen.push(`${name}=${value}`));
    assert.deepEqual(seen, ['a=1']);
  });

  it('goes as the headers of Node’s fetch (the editor’s model requests)', async () => {
    let got: http.IncomingHttpHeaders = {};
    const server = http.createServer((req, res) => {
      got = req.headers;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const headers = new HeaderList({ Authorization: 'Bearer k', 'X-Title': 'Logbook' });
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: headers as unknown as FetchHeaders });
      assert.equal(await res.text(), 'ok');
      assert.equal(got.authorization, 'Bearer k');
      assert.equal(got['x-title'], 'Logbook');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('refuses a name or value Node’s Headers refuses, with a TypeError', () => {
    for (const [name, value] of [
      ['bad name', 'v'],
      ['', 'v'],
      ['x', 'a\r\nb'],
      ['x', 'nul\0'],
      ['x', 'wide \u2603'],
    ] as const) {
      assert.throws(() => new Headers().append(name, value), TypeError, `Node's: ${name}`);
      assert.throws(() => new HeaderList().append(name, value), TypeError, `ours: ${name}`);
    }
    assert.throws(() => new HeaderList([['only-a-name']]), TypeError);
  });
});

describe('ModelResponse, as Node’s Response', () => {
  it('reads its body as text or JSON once, as a Response does', async () => {
    const r = new ModelResponse(streamOf('\uFEFF{"a":', '"é"}'), { status: 200 });
    const n = new Response(streamOf('\uFEFF{"a":', '"é"}'), { status: 200 });
    assert.equal(r.ok, n.ok);
    assert.deepEqual(await r.json(), await n.json());
    assert.equal(r.bodyUsed, true);
    await assert.rejects(() => r.text(), TypeError);
    await assert.rejects(() => n.text(), TypeError);
  });

  it('has no body for an empty answer, and reads it as empty text', async () => {
    const r = new ModelResponse(null, { status: 204, statusText: 'No Content' });
    assert.equal(r.body, null);
    assert.equal(await r.text(), '');
    assert.equal(r.ok, true);
    assert.equal(new ModelResponse(null, { status: 404 }).ok, false);
    assert.equal(r.headers.get('content-type'), null);
  });
});
