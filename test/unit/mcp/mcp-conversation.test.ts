import * as assert from 'node:assert/strict';
import type { Event } from '../../../src/core/events';
import { observationText, parseEvent, serializeEvent } from '../../../src/core/events';
import { createHarness, type Harness } from '../../support/agent-harness';
import { everythingStdio, faultStdio, hubFor, startEverythingHttp, type TestHub } from './mcp-support';

const ofKind = <K extends Event['kind']>(events: readonly Event[], k: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === k);

const BUILT_IN = ['terminal', 'file_editor', 'task_tracker', 'glob', 'grep', 'think', 'finish'];

describe('MCP tools in a conversation (real servers, scripted model)', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  let t: TestHub | undefined;
  afterEach(async () => {
    await t?.hub.close();
    await h?.close();
    h = undefined;
    t = undefined;
  });

  async function setup(servers: Record<string, unknown>, turns: unknown[], settings = {}) {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    t = await hubFor(servers, mkdtempSync(`${tmpdir()}/mcp-cwd-`), { reserved: BUILT_IN });
    h = await createHarness({ name: 'mcp', turns } as never, settings, { toolSource: t.hub.source() });
    return h.open();
  }

  it('offers the reference server tools over stdio and round-trips a call as MCPToolAction/Observation', async () => {
    const c = await setup({ everything: everythingStdio }, [
      {
        match: { hasTools: true },
        reply: { toolCalls: [{ id: 'call_echo', name: 'echo', arguments: { message: 'hello mcp' } }] },
      },
      { match: { lastRole: 'tool', toolResultIncludes: 'Echo: hello mcp' }, reply: { content: 'Echoed.' } },
    ]);
    await c.sendMessage('echo something');
    assert.equal(await c.run(), 'finished');
    // The server's tools reached the model with its own names, descriptions and schemas.
    const tools = h!.llm.completionBodies()[0]!.tools as {
      function: { name: string; description: string; parameters: { properties: Record<string, unknown> } };
    }[];
    const echo = tools.find((x) => x.function.name === 'echo');
    assert.ok(echo, `echo offered among ${tools.map((x) => x.function.name).join(', ')}`);
    assert.match(echo.function.description, /Echoes back the input/i);
    assert.deepEqual(Object.keys(echo.function.parameters.properties), ['message']);
    assert.ok(tools.some((x) => x.function.name === 'get-sum'));

    const events = await c.events();
    const action = ofKind(events, 'ActionEvent')[0]!;
    const obs = ofKind(events, 'ObservationEvent')[0]!;
    // OpenHands' shapes, through the codec and back.
    const actionJson = JSON.parse(serializeEvent(action)) as Record<string, unknown>;
    assert.deepEqual(actionJson.action, { data: { message: 'hello mcp' }, kind: 'MCPToolAction' });
    assert.equal(actionJson.tool_name, 'echo');
    const obsJson = JSON.parse(serializeEvent(obs)) as { observation: Record<string, unknown> };
    assert.equal(obsJson.observation.kind, 'MCPToolObservation');
    assert.equal(obsJson.observation.tool_name, 'echo');
    assert.equal(obsJson.observation.is_error, false);
    assert.deepEqual(obsJson.observation.content, [{ type: 'text', text: 'Echo: hello mcp' }]);
    for (const e of [actionJson, obsJson]) assert.equal(parseEvent(e).ok, true);
    // Read-only by its annotations: it ran without asking even in "always" mode? (mode never here)
    assert.equal(action.security_risk, 'UNKNOWN');
  });

  it('records the tools from outside the model is offered, once per change, before the request', async () => {
    const c = await setup({ faults: faultStdio() }, [
      { match: { lastContentIncludes: 'first' }, reply: { content: 'One.' } },
      { match: { lastContentIncludes: 'second' }, reply: { content: 'Two.' } },
      { match: { lastContentIncludes: 'third' }, reply: { content: 'Three.' } },
    ]);
    const offered = async () =>
      (await c.events()).filter(
        (e): e is Extract<typeof e, { kind: 'ConversationStateUpdateEvent' }> =>
          e.kind === 'ConversationStateUpdateEvent' && e.key === 'tools_offered',
      );
    await c.sendMessage('first');
    assert.equal(await c.run(), 'finished');
    const [first] = await offered();
    assert.ok(first, 'the offered tools are recorded');
    const names = (first.value as { tools: { function: { name: string } }[] }).tools.map(
      (x) => x.function.name,
    );
    assert.ok(names.includes('plain') && names.includes('shout'), names.join(', '));
    const events = await c.events();
    const firstLlm = events.findIndex(
      (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'llm_usage',
    );
    assert.ok(events.indexOf(first) < firstLlm, 'recorded before the request that offered them');
    assert.equal(c.state.toolsOfferedSha, (first.value as { sha256: string }).sha256);

    await c.sendMessage('second');
    assert.equal(await c.run(), 'finished');
    assert.equal((await offered()).length, 1, 'the same tools again: nothing new recorded');

    const { parseMcpServers } = await import('../../../src/host/node/mcp');
    await t!.hub.configure(parseMcpServers({ mcpServers: {} }));
    await c.sendMessage('third');
    assert.equal(await c.run(), 'finished');
    const all = await offered();
    assert.equal(all.length, 2);
    assert.deepEqual(all[1]!.value, { tools: [], sha256: null }, 'the server went: none offered now');
  });

  it('keeps images and embedded resources of a result', async () => {
    const c = await setup({ everything: everythingStdio }, [
      {
        reply: {
          toolCalls: [
            { id: 'call_img', name: 'get-tiny-image', arguments: {} },
            {
              id: 'call_res',
              name: 'get-resource-reference',
              arguments: { resourceType: 'Text', resourceId: 2 },
            },
          ],
        },
      },
      // The image goes back after the tool results as a user message (tool messages take text only).
      { match: { lastRole: 'user' }, reply: { content: 'Seen.' } },
    ]);
    await c.sendMessage('show me');
    assert.equal(await c.run(), 'finished', JSON.stringify(c.state.lastError));
    const [img, res] = ofKind(await c.events(), 'ObservationEvent');
    const parts = img!.observation.content!;
    const image = parts.find((p) => p.type === 'image');
    assert.ok(image && image.type === 'image' && /^data:image\/png;base64,iVBOR/.test(image.image_urls[0]!));
    assert.match(observationText(img!.observation), /image \(image\/png\) was returned/);
    assert.match(
      observationText(res!.observation),
      /\[Resource demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\)\]\nResource 2/,
    );
  });

  it('works over Streamable HTTP too', async () => {
    const server = await startEverythingHttp();
    try {
      const c = await setup({ web: { url: server.url } }, [
        { reply: { toolCalls: [{ id: 'call_sum', name: 'get-sum', arguments: { a: 2, b: 40 } }] } },
        { match: { lastRole: 'tool', toolResultIncludes: '42' }, reply: { content: 'The sum is 42.' } },
      ]);
      await c.sendMessage('add');
      assert.equal(await c.run(), 'finished');
      assert.deepEqual(
        t!.hub.running().map((r) => r.server),
        ['web'],
      );
      assert.equal(h!.llm.remainingTurns(), 0);
    } finally {
      await t?.hub.close();
      await server.stop();
    }
  });

  it('falls back to HTTP+SSE for a server that only speaks it', async () => {
    const server = await startEverythingHttp('sse');
    try {
      const c = await setup({ old: { url: server.url } }, [
        { reply: { toolCalls: [{ id: 'call_echo', name: 'echo', arguments: { message: 'over sse' } }] } },
        { match: { lastRole: 'tool', toolResultIncludes: 'Echo: over sse' }, reply: { content: 'Done.' } },
      ]);
      await c.sendMessage('echo');
      assert.equal(await c.run(), 'finished');
      assert.equal(h!.llm.remainingTurns(), 0);
    } finally {
      await t?.hub.close();
      await server.stop();
    }
  });

  it('asks before a tool without annotations, and runs it once approved', async () => {
    const c = await setup(
      { faults: faultStdio() },
      [
        {
          reply: {
            toolCalls: [{ id: 'call_plain', name: 'plain', arguments: { note: 'x', security_risk: 'LOW' } }],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'noted: x' }, reply: { content: 'Done.' } },
      ],
      { confirmationMode: 'risky' },
    );
    await c.sendMessage('note x');
    assert.equal(await c.run(), 'waiting_for_confirmation');
    const waiting = c.awaitingConfirmation();
    assert.deepEqual(
      waiting.map((a) => a.tool_name),
      ['plain'],
    );
    await c.approve();
    assert.equal(await c.run(), 'finished');
  });

  it('lets an alwaysAllow (autoApprove) tool run unasked, and a read-only one', async () => {
    const c = await setup(
      { faults: faultStdio({ autoApprove: ['plain'] }) },
      [
        {
          reply: {
            toolCalls: [
              { id: 'c1', name: 'plain', arguments: { note: 'y' } },
              { id: 'c2', name: 'shout', arguments: { text: 'hey' } },
            ],
          },
        },
        // shout returns an image too: it follows the tool results as a user message.
        { match: { lastRole: 'user' }, reply: { content: 'Done.' } },
      ],
      { confirmationMode: 'risky' },
    );
    await c.sendMessage('go');
    assert.equal(await c.run(), 'finished', JSON.stringify(c.state.lastError));
    const texts = ofKind(await c.events(), 'ObservationEvent').map((o) => observationText(o.observation));
    assert.match(texts[0]!, /noted: y/);
    assert.match(texts[1]!, /HEY/);
  });

  it('prefixes a tool whose name clashes with a built-in or another server, and logs it', async () => {
    const c = await setup({ a: faultStdio(), b: faultStdio() }, [{ reply: { content: 'nothing to do' } }]);
    await c.sendMessage('hi');
    await c.run();
    const names = (h!.llm.completionBodies()[0]!.tools as { function: { name: string } }[]).map(
      (x) => x.function.name,
    );
    assert.ok(names.includes('plain') && names.includes('b_plain'), names.join(', '));
    assert.ok(
      t!.logs.some((l) => /"plain" of the MCP server "b" is offered as "b_plain"/.test(l)),
      t!.logs.join('\n'),
    );
  });
});

describe('MCP faults: the conversation goes on', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  let t: TestHub | undefined;
  afterEach(async () => {
    await t?.hub.close();
    await h?.close();
  });

  async function run(servers: Record<string, unknown>, calls: { name: string; arguments?: object }[]) {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    t = await hubFor(servers, mkdtempSync(`${tmpdir()}/mcp-cwd-`), { reserved: BUILT_IN });
    h = await createHarness(
      {
        name: 'faults',
        turns: [
          ...calls.map((call, i) => ({
            reply: { toolCalls: [{ id: `call_${i}`, name: call.name, arguments: call.arguments ?? {} }] },
          })),
          { reply: { content: 'Carried on.' } },
        ],
      } as never,
      {},
      { toolSource: t.hub.source() },
    );
    const c = await h.open();
    await c.sendMessage('try the tools');
    const status = await c.run();
    return { c, status, events: await c.events() };
  }

  it('a server that fails to start: an error notice, and the run finishes without its tools', async () => {
    const { status, events } = await run({ broken: faultStdio({ args: [FAULT_ARGS, '--fail-start'] }) }, []);
    assert.equal(status, 'finished');
    const notices = ofKind(events, 'ConversationStateUpdateEvent').filter((e) => e.key === 'tool_source');
    assert.equal(notices.length, 1);
    assert.match(JSON.stringify(notices[0]!.value), /could not start.*refusing to start/);
    const tools = (h!.llm.completionBodies()[0]!.tools as { function: { name: string } }[]).map(
      (x) => x.function.name,
    );
    assert.ok(!tools.includes('shout'));
  });

  it('a server that crashes mid-call: an error observation, a notice, its tools are withdrawn', async () => {
    const { status, events } = await run({ f: faultStdio() }, [{ name: 'crash' }]);
    assert.equal(status, 'finished');
    const obs = ofKind(events, 'ObservationEvent')[0]!;
    assert.equal(obs.observation.is_error, true);
    assert.equal(obs.observation.kind, 'MCPToolObservation');
    assert.match(observationText(obs.observation), /could not run crash/);
    const notice = ofKind(events, 'ConversationStateUpdateEvent').find((e) => e.key === 'tool_source');
    assert.match(JSON.stringify(notice?.value), /stopped.*crashing on purpose/);
    const lastTools =
      (h!.llm.completionBodies().at(-1)!.tools as { function: { name: string } }[] | undefined) ?? [];
    assert.ok(!lastTools.some((x) => x.function.name === 'shout'));
  });

  it('a call that hangs: a timeout error, and the run goes on', async () => {
    const { status, events } = await run({ f: faultStdio({ timeout: 1 }) }, [
      { name: 'hang' },
      { name: 'shout', arguments: { text: 'after' } },
    ]);
    assert.equal(status, 'finished');
    const [hang, shout] = ofKind(events, 'ObservationEvent');
    assert.equal(hang!.observation.is_error, true);
    assert.match(observationText(hang!.observation), /no answer within 1 s/);
    assert.match(observationText(shout!.observation), /AFTER/);
  });

  it('a malformed result: an error the model reads', async () => {
    const { status, events } = await run({ f: faultStdio() }, [{ name: 'malformed' }]);
    assert.equal(status, 'finished');
    const obs = ofKind(events, 'ObservationEvent')[0]!;
    assert.equal(obs.observation.is_error, true);
    assert.match(observationText(obs.observation), /could not run malformed|malformed/);
  });

  it('a huge result: dropped with an error, not recorded', async () => {
    const nine = String(9 * 1024 * 1024);
    const { status, events } = await run({ f: faultStdio({ env: { HUGE_BYTES: nine } }) }, [
      { name: 'huge' },
    ]);
    assert.equal(status, 'finished');
    const obs = ofKind(events, 'ObservationEvent')[0]!;
    assert.equal(obs.observation.is_error, true);
    assert.match(observationText(obs.observation), /9\.0 MiB.*over the 8\.0 MiB/);
    assert.ok(serializeEvent(obs).length < 10_000);
  });

  it('an answer past the transport limit: the server is dropped with a clear reason', async () => {
    const twelve = String(12 * 1024 * 1024);
    const { status, events } = await run({ f: faultStdio({ env: { HUGE_BYTES: twelve } }) }, [
      { name: 'huge' },
    ]);
    assert.equal(status, 'finished');
    const obs = ofKind(events, 'ObservationEvent')[0]!;
    assert.equal(obs.observation.is_error, true);
    assert.match(observationText(obs.observation), /larger than the 10 MiB a message may have/);
    const notice = ofKind(events, 'ConversationStateUpdateEvent').find((e) => e.key === 'tool_source');
    assert.match(JSON.stringify(notice?.value), /stopped/);
  });

  it('a large result under the limit: capped for the model, whole in the scratch folder', async () => {
    const { status, events } = await run({ f: faultStdio({ env: { HUGE_BYTES: '100000' } }) }, [
      { name: 'huge' },
    ]);
    assert.equal(status, 'finished');
    const text = observationText(ofKind(events, 'ObservationEvent')[0]!.observation);
    assert.ok(text.length < 31_000, String(text.length));
    assert.match(text, /characters left out; the whole text is in .*mcp-f-huge\.txt/);
  });
});

describe('MCP hub: what a stdio server is given', function () {
  this.timeout(30_000);
  it('a scrubbed environment (no API key, no LOGBOOK_*) plus its own env', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const cwd = mkdtempSync(`${tmpdir()}/mcp-cwd-`);
    const t = await hubFor({ everything: { ...everythingStdio, env: { OWN_VAR: 'mine' } } }, cwd, {
      baseEnv: {
        PATH: process.env.PATH,
        OPENAI_API_KEY: 'sk-should-not-leak-1',
        LOGBOOK_PROFILE: 'x',
        KEEP_ME: 'yes',
      },
    });
    try {
      const source = t.hub.source();
      await source.prepare();
      const getEnv = source.tools().find((s) => s.name === 'get-env')!;
      const obs = await getEnv.execute({}, { ports: {} as never, cwd, signal: new AbortController().signal });
      const text = obs.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      assert.match(text, /"OWN_VAR": "mine"/);
      assert.match(text, /"KEEP_ME": "yes"/);
      assert.doesNotMatch(text, /OPENAI_API_KEY|sk-should-not-leak|LOGBOOK_PROFILE/);
    } finally {
      await t.hub.close();
    }
  });
});

describe('MCP hub: configuration changes', function () {
  this.timeout(30_000);
  it('restarts a server whose entry changed, keeps an unchanged one, stops a removed one', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { parseMcpServers } = await import('../../../src/host/node/mcp');
    const t = await hubFor({ a: faultStdio(), b: faultStdio() }, mkdtempSync(`${tmpdir()}/mcp-cwd-`));
    try {
      const source = t.hub.source();
      await source.prepare();
      const before = source.tools();
      const bShout = before.find((s) => s.name === 'b_shout');
      assert.ok(bShout);
      await t.hub.configure(parseMcpServers({ mcpServers: { a: faultStdio({ timeout: 5 }) } }));
      assert.deepEqual(t.hub.running(), [], 'a (changed) and b (removed) stopped');
      assert.ok(
        t.logs.some((l) => /"a" stopped: its configuration changed/.test(l)),
        t.logs.join('\n'),
      );
      assert.ok(t.logs.some((l) => /"b" stopped: it was removed/.test(l)));
      await source.prepare();
      assert.deepEqual(
        t.hub.running().map((r) => r.server),
        ['a'],
      );
      // The removed server's tool is gone; the old spec answers with an error, not a hang.
      assert.ok(!source.tools().some((s) => s.name.endsWith('_shout')));
      const obs = await bShout.execute(
        { text: 'x' },
        { ports: {} as never, cwd: '.', signal: new AbortController().signal },
      );
      assert.equal(obs.is_error, true);
      await t.hub.configure(parseMcpServers({ mcpServers: { a: faultStdio({ timeout: 5 }) } }));
      assert.deepEqual(
        t.hub.running().map((r) => r.server),
        ['a'],
        'an unchanged entry keeps running',
      );
    } finally {
      await t.hub.close();
    }
  });
});

describe('MCP hub: a secret a server uses changes', function () {
  this.timeout(30_000);
  it('restarts the servers that refer to it, with the new value, and only those', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { McpHub, parseMcpServers } = await import('../../../src/host/node/mcp');
    const cwd = mkdtempSync(`${tmpdir()}/mcp-cwd-`);
    const secrets = new Map([['tok', 'first-token-value']]);
    const logs: string[] = [];
    const hub = new McpHub({
      cwd,
      baseEnv: { PATH: process.env.PATH },
      resolve: async (kind, name) => (kind === 'secret' ? secrets.get(name) : undefined),
      reservedNames: [],
      log: (line) => logs.push(line),
    });
    await hub.configure(
      parseMcpServers({
        mcpServers: {
          everything: { ...everythingStdio, env: { TOKEN: '${secret:tok}' } },
          other: faultStdio(),
        },
      }),
    );
    const tokenSeen = async (): Promise<string> => {
      const getEnv = source.tools().find((s) => s.name === 'get-env')!;
      const obs = await getEnv.execute({}, { ports: {} as never, cwd, signal: new AbortController().signal });
      const text = obs.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      return /"TOKEN": "([^"]*)"/.exec(text)?.[1] ?? '(none)';
    };
    const source = hub.source();
    try {
      await source.prepare();
      assert.equal(await tokenSeen(), 'first-token-value');
      secrets.set('tok', 'second-token-value');
      await hub.secretChanged('unrelated');
      assert.deepEqual(
        hub.running().map((r) => r.server),
        ['everything', 'other'],
        'a secret no server uses restarts nothing',
      );
      await hub.secretChanged('tok');
      assert.deepEqual(
        hub.running().map((r) => r.server),
        ['other'],
      );
      assert.ok(
        logs.some((l) => /"everything" stopped: the secret "tok" it uses changed/.test(l)),
        logs.join('\n'),
      );
      await source.prepare();
      assert.equal(await tokenSeen(), 'second-token-value');
    } finally {
      await hub.close();
    }
  });
});

describe('MCP hub: a server that never answers its start', function () {
  this.timeout(30_000);
  it('does not hold up close, and its start ends in a clear failure', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    const t = await hubFor({ silent }, mkdtempSync(`${tmpdir()}/mcp-cwd-`), { startTimeoutMs: 1_500 });
    const source = t.hub.source();
    const starting = source.prepare();
    await new Promise((r) => setTimeout(r, 200));
    const began = Date.now();
    await t.hub.close();
    assert.ok(Date.now() - began < 1_000, `close took ${Date.now() - began} ms`);
    await starting;
    assert.deepEqual(t.hub.running(), []);

    // Without a close, the same server is reported as not answering.
    const u = await hubFor({ silent }, mkdtempSync(`${tmpdir()}/mcp-cwd-`), { startTimeoutMs: 1_000 });
    try {
      const view = u.hub.source();
      await view.prepare();
      assert.match(
        view.takeNotices()[0]?.message ?? '',
        /"silent" could not start: it did not answer within 1 s/,
      );
    } finally {
      await u.hub.close();
    }
  });
});

const FAULT_ARGS = faultStdio().args[0]!;

describe('MCP hub: resources and prompts, for mentions', function () {
  this.timeout(30_000);
  it('lists the running servers’ resources by server and reads one, text as text and binary by size', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const t = await hubFor(
      { everything: everythingStdio, faults: faultStdio() },
      mkdtempSync(`${tmpdir()}/mcp-cwd-`),
    );
    try {
      assert.deepEqual(await t.hub.resources(), [], 'no server runs yet: nothing is started to list');
      await t.hub.source().prepare();
      const all = await t.hub.resources();
      assert.ok(all.length > 0);
      assert.ok(
        all.every((r) => r.server === 'everything'),
        'the fault server has no resources',
      );
      const text = all.find((r) => r.mimeType?.startsWith('text/'));
      assert.ok(text, JSON.stringify(all.slice(0, 3)));
      const read = await t.hub.readResource('everything', text.uri);
      assert.ok(read.text.length > 0);
      const blob = all.find((r) => r.mimeType && !r.mimeType.startsWith('text/'));
      if (blob) {
        const b = await t.hub.readResource('everything', blob.uri);
        assert.ok(b.binary.length > 0 && b.binary[0]!.bytes > 0, JSON.stringify(b));
      }
      await assert.rejects(t.hub.readResource('nope', text.uri), /"nope" is not running/);
      // Prompts too, with the arguments they require.
      const prompts = await t.hub.prompts();
      const simple = prompts.find((p) => p.required.length === 0);
      assert.ok(simple, JSON.stringify(prompts));
      assert.ok(
        prompts.some((p) => p.required.length > 0),
        'a prompt that needs arguments says so',
      );
      assert.match(await t.hub.getPrompt('everything', simple.name), /^user: \S/);
    } finally {
      await t.hub.close();
    }
  });
});
