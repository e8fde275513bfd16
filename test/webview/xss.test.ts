// Classic XSS payloads in every place event text reaches the screen: none may run (no flag set, no
// dialog, no CSP violation, which would mean something tried), and no dangerous element or attribute
// may reach the DOM.
import assert from 'node:assert/strict';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import {
  agentMessage,
  CONVERSATION_ID,
  editAction,
  editObservation,
  eid,
  makeHeader,
  terminalAction,
  terminalObservation,
  userMessage,
} from './harness/events';
import { type Harness, type Harnessed, Panel, startHarness } from './support';

const RUN = 'window.__xss=1';
export const PAYLOADS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<img src="x" onerror=${RUN}//`,
  `<svg onload=${RUN}>`,
  `<svg><script>${RUN}</script></svg>`,
  `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
  `<iframe src="javascript:parent.__xss=1"></iframe>`,
  `<body onload=${RUN}>`,
  `<details open ontoggle=${RUN}>`,
  `<input autofocus onfocus=${RUN}>`,
  `<video><source onerror=${RUN}></video>`,
  `<object data="javascript:${RUN}"></object>`,
  `<embed src="javascript:${RUN}">`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${RUN}>`,
  `<style>body{background:url("javascript:${RUN}")}</style>`,
  `<div style="width:expression(${RUN})">css expression</div>`,
  `<a href="javascript:${RUN}">click me</a>`,
  `<a href="JaVaScRiPt:${RUN}">mixed case</a>`,
  `<a href="&#106;avascript:${RUN}">entity</a>`,
  `<a href="data:text/html,<script>${RUN}</script>">data url</a>`,
  `[markdown link](javascript:${RUN})`,
  `[spaced link](  javascript:${RUN}  )`,
  `[entity link](&#x6A;avascript:${RUN})`,
  `![image](javascript:${RUN})`,
  `![x](x" onerror="${RUN})`,
  `[ref link][r]\n\n[r]: javascript:${RUN}`,
  `<form action="javascript:${RUN}"><button>go</button></form>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${RUN}">`,
  `<base href="javascript:${RUN}//">`,
  `<link rel="stylesheet" href="javascript:${RUN}">`,
  `"><img src=x onerror=${RUN}>`,
  `\`\`\`html\n<img src=x onerror=${RUN}>\n\`\`\``,
  `<template><img src=x onerror=${RUN}></template>`,
  `<noscript><p title="</noscript><img src=x onerror=${RUN}>">`,
];

/** The same payload in every field the panel shows. */
function hostileEvents(payload: string, n: number): EventJson[] {
  const id = (k: number) => eid(n * 100 + k);
  const term = terminalAction(id(2), payload, { summary: payload, thought: payload, risk: payload });
  term.reasoning_content = payload;
  term.tool_name = payload;
  const edit = editAction(id(4), `src/${payload}.ts`, payload, `${payload}!`);
  return [
    userMessage(id(0), payload),
    agentMessage(id(1), `Look: ${payload}`, payload),
    term,
    terminalObservation(id(3), id(2), payload, 1),
    edit,
    editObservation(id(5), id(4), `src/${payload}.ts`, `a\n${payload}\n`, `a\n${payload}!\n`),
    { kind: 'Condensation', id: id(6), forgotten_event_ids: [], summary: payload },
    { kind: 'ConversationErrorEvent', id: id(7), code: payload, detail: payload },
    { kind: payload.slice(0, 150) || 'X', id: id(8), detail: payload },
    {
      kind: 'UserRejectObservation',
      id: id(9),
      rejection_reason: payload,
      action_id: id(99),
      tool_name: payload,
      tool_call_id: 'c',
    },
    { kind: 'ConversationStateUpdateEvent', id: id(10), key: payload, value: payload },
  ];
}

const INSPECT = `(() => {
  const bad = [];
  const root = document.getElementById('root');
  const forbidden = 'script,iframe,frame,object,embed,svg,math,style,link,meta,base,form:not(.composer):not(.inline-input),img,video,audio,source,template,noscript,input:not(.text-input):not(.timeline-slider[type=range]),body body';
  for (const el of root.querySelectorAll(forbidden)) bad.push('element ' + el.tagName);
  for (const el of root.querySelectorAll('*')) {
    for (const a of el.attributes) {
      const v = a.value.replace(/[\\s\\u0000-\\u001f]/g, '').toLowerCase();
      if (a.name.startsWith('on')) bad.push('attribute ' + a.name + ' on ' + el.tagName);
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc', 'data'].includes(a.name) && !/^(https?:|mailto:|#)/.test(v))
        bad.push(a.name + '=' + a.value.slice(0, 60) + ' on ' + el.tagName);
      if (a.name === 'style' && !el.matches('.feed-sizer, .feed-window')) bad.push('style attribute on ' + el.tagName);
    }
  }
  return bad;
})()`;

describe('webview: XSS corpus', function () {
  this.timeout(120_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 600, height: 6_000 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => p.page.close());

  it(`has a corpus of ${PAYLOADS.length} classic payloads`, () => {
    assert.ok(PAYLOADS.length >= 30);
  });

  it('runs none of them in messages, thoughts, commands, output, diffs, file names and notices', async () => {
    const header = makeHeader({ title: PAYLOADS[1]!, status: PAYLOADS[3]!.slice(0, 100) });
    await p.host({ type: 'conversation', header });
    let seq = 0;
    for (const [n, payload] of PAYLOADS.entries()) {
      const events: ViewEvent[] = hostileEvents(payload, n).map((event) => ({
        seq: seq++,
        event: event as ViewEvent['event'],
      }));
      await p.host({ type: 'events', conversationId: CONVERSATION_ID, events });
      await p.host({
        type: 'stream',
        conversationId: CONVERSATION_ID,
        delta: { type: 'text', text: payload },
      });
      await p.host({
        type: 'stream',
        conversationId: CONVERSATION_ID,
        delta: { type: 'tool_call', index: 0, name: payload.slice(0, 100), argumentsDelta: payload },
      });
    }
    await p.settle();
    // Scroll through the whole list, opening every collapsed section and long output on the way.
    const feed = p.page.locator('.feed');
    const height = await feed.evaluate((el) => el.scrollHeight as number);
    const problems = new Set<string>();
    let rowsSeen = 0;
    for (let top = 0; top <= height + 6_000; top += 2_500) {
      await feed.evaluate((el, y) => (el.scrollTop = y), top);
      await p.settle();
      for (let i = 0; i < 3; i++) {
        const closed = p.page.locator('.feed button[aria-expanded="false"]');
        const count = await closed.count();
        for (let k = 0; k < count; k++)
          await closed
            .nth(0)
            .click({ timeout: 2_000 })
            .catch(() => undefined);
      }
      await p.settle();
      rowsSeen += await p.page.locator('article.row').count();
      for (const b of (await p.page.evaluate(INSPECT)) as string[]) problems.add(b);
    }
    // Every markdown link that survived is clicked: none may run code.
    for (const link of await p.page.locator('.markdown a').all())
      await link.click({ timeout: 1_000, noWaitAfter: true }).catch(() => undefined);
    await p.page.waitForTimeout(300);
    assert.ok(rowsSeen > PAYLOADS.length * 5, `rows were rendered (${rowsSeen})`);
    assert.deepEqual([...problems], [], 'no dangerous element or attribute in the DOM');
    assert.equal(
      await p.page.evaluate(() => (globalThis as unknown as Harnessed).__xss),
      undefined,
      'no payload ran',
    );
    assert.deepEqual(p.dialogs, [], 'no dialog opened');
    assert.deepEqual(await p.cspViolations(), [], 'nothing even tried to run (CSP saw no attempt)');
    assert.deepEqual(p.errors, []);
    // The payloads are shown as text, not swallowed.
    assert.ok((await p.page.locator('header .title').innerText()).includes('<img src=x onerror='));
  });
});
