// The fetch tool in the real extension host: the scripted model calls it on a page this machine
// serves. With the default settings the loopback target is refused unfetched; with private
// addresses allowed the header asks at MEDIUM naming the URL and the address, and the page reaches
// the model as Markdown inside the untrusted wrapper; a host in logbook.web.allowedHosts runs unasked.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel } from './helpers';

const PAGE =
  '<html><head><title>Notes</title></head><body><main><h1>Release notes</h1><h2>Version 2</h2>' +
  '<ul><li>Faster</li><li>Smaller</li></ul><p>Read <a href="/more">more</a> about every change in this release.</p></main></body></html>';

describe('the fetch tool', function () {
  this.timeout(90_000);
  let llm: ScriptedLlm | undefined;
  let server: Server;
  let url: string;
  let hits = 0;
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  const set = (key: string, value: unknown) => cfg().update(key, value, vscode.ConfigurationTarget.Global);

  before(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notes`;
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await set('web.allowPrivateAddresses', undefined);
    await set('web.allowedHosts', undefined);
    await set('confirmation.mode', undefined);
  });
  after(() => new Promise((r) => server.close(r)));

  async function start(resultIncludes: string) {
    llm = await scriptedModel({
      name: 'host-fetch',
      turns: [
        { reply: { toolCalls: [{ id: 'call_fetch', name: 'fetch', arguments: { url } }] } },
        { match: { lastRole: 'tool', toolResultIncludes: resultIncludes }, reply: { content: 'Read it.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'what is new?');
    return { service, id, session: await service.session(id) };
  }

  const observationText = async (session: Awaited<ReturnType<typeof start>>['session']) => {
    const obs = (await session.conversation.events()).find((e) => e.kind === 'ObservationEvent');
    assert.ok(obs && obs.kind === 'ObservationEvent');
    return (obs.observation.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  };

  it('is offered, and refuses this machine under the default rules without connecting', async () => {
    await set('confirmation.mode', 'risky');
    hits = 0;
    const { session } = await start('Not fetched');
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    const tools = (llm!.completionBodies()[0]?.tools ?? []) as { function: { name: string } }[];
    assert.ok(tools.some((t) => t.function.name === 'fetch'));
    assert.match(await observationText(session), /127\.0\.0\.1 is a loopback address/);
    assert.equal(hits, 0);
  });

  it('asks at MEDIUM naming the URL and address, then gives the page as untrusted Markdown', async () => {
    await set('confirmation.mode', 'risky');
    await set('web.allowPrivateAddresses', true);
    hits = 0;
    const { service, id, session } = await start('## Version 2');
    assert.equal(await session.settled(), 'waiting_for_confirmation');
    const header = service.header(id)!;
    const [pending] = header.pendingRisks ?? [];
    assert.equal(pending?.risk, 'MEDIUM');
    assert.match(
      pending?.reason ?? '',
      new RegExp(`fetches ${url.replace(/\./g, '\\.')} from 127\\.0\\.0\\.1:\\d+ at 127\\.0\\.0\\.1`),
    );
    assert.equal(hits, 0, 'nothing is fetched before the user confirms');
    await service.approve(id, header.pendingActionIds);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    const text = await observationText(session);
    assert.match(text, /<untrusted_web_content source="http:\/\/127\.0\.0\.1:\d+\/notes">/);
    assert.match(text, /^- +Smaller$/m);
    assert.equal(hits, 1);
  });

  it('fetches a host in logbook.web.allowedHosts without asking', async () => {
    await set('confirmation.mode', 'risky');
    await set('web.allowPrivateAddresses', true);
    await set('web.allowedHosts', ['127.0.0.1']);
    hits = 0;
    const { session } = await start('Release notes');
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    assert.equal(hits, 1);
  });
});
