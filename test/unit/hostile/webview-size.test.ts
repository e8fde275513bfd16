import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBVIEW_TEXT } from '../../../src/protocol/webview-text';

const root = join(__dirname, '..', '..', '..');
const CID = '7f3c2a10-5b1e-4c8d-9a0f-123456789abc';

/**
 * Parses each message in a fresh process that loads only the protocol module and what sets zod's
 * messages where that side parses: the webview's zod-config.ts (there, full zod is never loaded to
 * lend zod/mini its English messages), or the host's zod bundle entry. Prints one JSON line.
 */
function parseAlone(direction: 'host' | 'webview', messages: unknown[]): { ok: boolean; error?: string }[] {
  const config = direction === 'host' ? 'webview-ui/src/zod-config.ts' : 'src/shared-zod.ts';
  const script = `
    await import(${JSON.stringify(join(root, config))});
    const m = await import(${JSON.stringify(join(root, 'src/protocol/messages.ts'))});
    const { parseHostMessage, parseWebviewMessage } = m.parseHostMessage ? m : m.default;
    const parse = ${direction === 'host' ? 'parseHostMessage' : 'parseWebviewMessage'};
    const messages = JSON.parse(process.argv[1]);
    console.log(JSON.stringify({ results: messages.map((m) => parse(m)) }));
  `;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(messages)],
    { cwd: root, encoding: 'utf8' },
  );
  const { results } = JSON.parse(out.trim().split('\n').at(-1)!) as {
    results: { ok: boolean; error?: string }[];
  };
  return results;
}

describe('hostile: the webview protocol with zod/mini, and the webview bundle size', () => {
  it('a malformed host → webview message is refused with an error that names the field and what was expected', function () {
    this.timeout(30_000);
    const [wrongType, extraField, badEvent, unknownType] = parseAlone('host', [
      { type: 'window', conversationId: CID, firstSeq: 'zero' },
      { type: 'window', conversationId: CID, firstSeq: 0, script: '<img onerror=alert(1)>' },
      { type: 'events', conversationId: CID, events: [{ seq: 0, event: { kind: 'X' } }] },
      { type: 'eval', code: 'alert(1)' },
    ]);
    for (const r of [wrongType, extraField, badEvent, unknownType]) assert.equal(r?.ok, false);
    assert.match(wrongType!.error!, /^\(window\) .*expected number, received string.*\n.*at firstSeq/s);
    assert.match(extraField!.error!, /^\(window\) .*Unrecognized key: "script"/s);
    assert.match(badEvent!.error!, /an event needs a string "kind" and "id".*at events\[0\]\.event/s);
    assert.match(unknownType!.error!, /^\(eval\) .*Invalid discriminator value.*'conversation'.*at type/s);
    assert.ok(unknownType!.error!.length <= 600, 'the log line stays short');
  });

  it('a malformed webview → host message is refused with an error that names the field and what was expected', function () {
    this.timeout(30_000);
    const [tooLong, noPrefix, tooManyImages, notObject] = parseAlone('webview', [
      { type: 'stop', conversationId: 'x'.repeat(201) },
      { type: 'alwaysAllow', conversationId: CID, actionId: 'a', commandPrefix: '   ' },
      {
        type: 'sendMessage',
        text: 'hi',
        attachActiveFile: false,
        attachSelection: false,
        attachments: Array.from({ length: 5 }, () => ({ kind: 'image', data: 'AAAA' })),
      },
      'approve everything',
    ]);
    for (const r of [tooLong, noPrefix, tooManyImages, notObject]) assert.equal(r?.ok, false);
    assert.match(
      tooLong!.error!,
      /^\(stop\) .*Too big: expected string to have <=200 characters.*at conversationId/s,
    );
    assert.match(noPrefix!.error!, /empty command prefix.*at commandPrefix/s);
    assert.match(tooManyImages!.error!, /too many images.*at attachments/s);
    assert.match(notObject!.error!, /^\(string\) .*expected object, received string/s);
  });

  it('values no JSON can carry (throwing getters, proxies, cycles) are refused, never thrown', async () => {
    const { parseHostMessage, parseWebviewMessage } = await import('../../../src/protocol/messages');
    const throwing = {
      type: 'stop',
      get conversationId(): string {
        throw new Error('boom');
      },
    };
    const cyclic: Record<string, unknown> = { type: 'events', conversationId: CID };
    cyclic['events'] = [cyclic];
    const proxy = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    for (const raw of [throwing, cyclic, proxy]) {
      for (const parse of [parseHostMessage, parseWebviewMessage]) {
        const r = parse(raw);
        assert.equal(r.ok, false);
        if (!r.ok) assert.ok(r.error.length > 0 && r.error.length <= 600);
      }
    }
  });

  it('dist/webview.js, built as it ships, stays within its size budget and bundles neither full zod nor preact/compat', async function () {
    this.timeout(60_000);
    const { webviewOptions, WEBVIEW_BUDGET_BYTES } = await import('../../../scripts/webview-bundle.mjs');
    const esbuild = await import('esbuild');
    const out = mkdtempSync(join(tmpdir(), 'logbook-webview-size-'));
    try {
      const r = await esbuild.build({
        ...webviewOptions({ root, outdir: out, sourcemap: false }),
        metafile: true,
        logLevel: 'silent',
      });
      const size = statSync(join(out, 'webview.js')).size;
      assert.ok(size <= WEBVIEW_BUDGET_BYTES, `webview.js is ${size} bytes, over ${WEBVIEW_BUDGET_BYTES}`);
      const inputs = Object.keys(r.metafile!.inputs);
      assert.deepEqual(
        inputs.filter((f) => /zod\/v4\/classic\/|preact\/compat\//.test(f)),
        [],
        'the webview uses zod/mini and preact alone',
      );
      // Its words come in the document the host serves (webview-html.ts), not twice.
      const js = readFileSync(join(out, 'webview.js'), 'utf8');
      assert.equal(js.includes(WEBVIEW_TEXT.emptyBody), false, 'webview.js carries the English words');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
