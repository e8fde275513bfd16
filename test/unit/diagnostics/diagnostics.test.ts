import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { diagnosticsText, hasErrors, section, sectionStatus } from '../../../src/core/diagnostics/report';
import { endpointRows, probeEndpoint } from '../../../src/host/node/diagnostics/endpoint-probe';
import {
  describeCleanup,
  oldCheckpoints,
  type StoreUsage,
  whyText,
} from '../../../src/host/node/diagnostics/storage-usage';

const WORDS = { setKey: 'run Logbook: Set API Key', baseUrl: 'logbook.model.baseURL' };
const KEY = 'sk-diagnostics-never-shown-77';

describe('diagnostics report', () => {
  it('a section is as bad as its worst row; info rows are neutral', () => {
    const ok = section('signing', [
      { label: 'a', value: '1', status: 'ok' },
      { label: 'b', value: '2', status: 'info' },
    ]);
    assert.equal(sectionStatus(ok), 'ok');
    const bad = section('model', [
      { label: 'a', value: '1', status: 'warning' },
      { label: 'b', value: '2', status: 'error', fix: 'do this' },
    ]);
    assert.equal(sectionStatus(bad), 'error');
    assert.equal(sectionStatus(section('mcp', [{ label: 'x', value: 'y', status: 'info' }])), 'info');
    assert.equal(hasErrors({ sections: [ok] }), false);
    assert.equal(hasErrors({ sections: [ok, bad] }), true);
    const text = diagnosticsText({ sections: [ok, bad] });
    assert.match(text, /^Signing identity: ok$/m);
    assert.match(text, /^Model: not working$/m);
    assert.match(text, /^ {2}FAIL b: 2\n {7}fix: do this$/m);
  });
});

describe('old checkpoints', () => {
  const day = 24 * 60 * 60 * 1000;
  const now = new Date('2026-06-30T00:00:00Z');
  const stores: StoreUsage[] = [
    {
      storeDir: '/s',
      bytes: 10,
      held: [
        { storeDir: '/s', conversationId: 'recent', newest: new Date(now.getTime() - 2 * day) },
        { storeDir: '/s', conversationId: 'old', newest: new Date(now.getTime() - 45 * day) },
        { storeDir: '/s', conversationId: 'gone', newest: new Date(now.getTime() - 1 * day) },
      ],
    },
  ];

  it('are those past the age, and those whose conversation is gone when the host knows', () => {
    const byAge = oldCheckpoints(stores, { olderThanDays: 30, now });
    assert.deepEqual(
      byAge.map((o) => [o.conversationId, whyText(o)]),
      [['old', 'its newest checkpoint is 45 days old']],
    );
    const known = new Set(['recent', 'old']);
    const withList = oldCheckpoints(stores, { olderThanDays: 30, now, exists: (id) => known.has(id) });
    assert.deepEqual(
      withList.map((o) => o.conversationId),
      ['old', 'gone'],
    );
    assert.deepEqual(
      describeCleanup(withList, (id) => `"${id.toUpperCase()}"`),
      [
        'the checkpoints of "OLD" (its newest checkpoint is 45 days old; newest 2026-05-16)',
        'the checkpoints of "GONE" (its conversation was deleted; newest 2026-06-29)',
      ],
    );
  });
});

describe('endpoint probe', () => {
  let server: Server;
  let baseUrl: string;
  let seenAuth: string | undefined;
  before(async () => {
    server = createServer((req, res) => {
      seenAuth = req.headers.authorization;
      if (req.headers.authorization !== `Bearer ${KEY}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"m1"},{"id":"m2"}]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('sends the key, reads the models, and never puts the key in a row', async () => {
    const input = { baseUrl, model: 'm2', apiKey: KEY };
    const probe = await probeEndpoint(input);
    assert.equal(seenAuth, `Bearer ${KEY}`);
    assert.deepEqual(probe, { reachable: true, status: 200, models: ['m1', 'm2'] });
    const rows = endpointRows(input, probe, WORDS);
    assert.deepEqual(
      rows.map((r) => r.status),
      ['ok', 'ok', 'ok'],
    );
    assert.ok(!JSON.stringify(rows).includes(KEY));
  });

  it('a refused key is an error that says how to set one', async () => {
    const input = { baseUrl, model: 'm1', apiKey: 'sk-wrong' };
    const rows = endpointRows(input, await probeEndpoint(input), WORDS);
    assert.equal(rows[0]!.status, 'error');
    assert.match(rows[0]!.value, /refused the key \(HTTP 401\)/);
    assert.equal(rows[0]!.fix, 'Set a valid key: run Logbook: Set API Key.');
  });

  it('names the endpoint without the credentials its URL carries', async () => {
    const withUser = baseUrl.replace('http://', 'http://user:pa55word@');
    const input = { baseUrl: withUser, model: 'm1' };
    const rows = endpointRows(input, await probeEndpoint(input), WORDS);
    assert.ok(!JSON.stringify(rows).includes('pa55word'));
    assert.equal(seenAuth, `Basic ${Buffer.from('user:pa55word').toString('base64')}`);
  });
});
