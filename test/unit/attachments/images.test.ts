// Images: stored once per conversation by content, referenced from events, loaded (or left out
// with a note) only when a request is built; file_editor `view` of an image returns image content.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  IMAGE_URL_PREFIX,
  ImageStore,
  MAX_IMAGE_BYTES,
  sniffImageMime,
} from '../../../src/core/attachments/image-store';
import {
  IMAGE_LEFT_OUT_NOTE,
  IMAGE_MISSING_NOTE,
  projectImages,
} from '../../../src/core/attachments/project-images';
import type { ChatMessage } from '../../../src/core/events/to-messages';
import { createHarness, type Harness } from '../../support/agent-harness';

/** A valid 1x1 PNG. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

describe('attachments: image store', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'logbook-images-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('knows the four image types by their bytes, not by a name', () => {
    assert.equal(sniffImageMime(PNG_1PX), 'image/png');
    assert.equal(sniffImageMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0])), 'image/jpeg');
    assert.equal(sniffImageMime(Buffer.from('GIF89a....')), 'image/gif');
    assert.equal(sniffImageMime(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
    assert.equal(sniffImageMime(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined);
  });

  it('stores the same image once, under its hash, and reads it back', async () => {
    const store = new ImageStore(dir);
    const a = await store.put(PNG_1PX);
    const b = await store.put(Buffer.from(PNG_1PX));
    assert.ok(a.ok && b.ok);
    assert.equal(a.url, b.url);
    assert.match(a.url, new RegExp(`^${IMAGE_URL_PREFIX}[0-9a-f]{64}\\.png$`));
    assert.deepEqual(readdirSync(join(dir, 'attachments')), [a.url.slice(IMAGE_URL_PREFIX.length)]);
    assert.equal(await store.dataUrl(a.url), `data:image/png;base64,${PNG_1PX.toString('base64')}`);
  });

  it('refuses what is not an image, and images over the cap', async () => {
    const store = new ImageStore(dir);
    const svg = await store.put(Buffer.from('<svg onload="alert(1)"/>'));
    assert.ok(!svg.ok && /not a PNG, JPEG, WebP or GIF/.test(svg.error));
    const big = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    PNG_1PX.copy(big);
    const over = await store.put(big);
    assert.ok(!over.ok && /over the 5\.0 MB/.test(over.error), JSON.stringify(over));
  });

  it('does not read an altered file, nor a name that leaves the folder', async () => {
    const store = new ImageStore(dir);
    const put = await store.put(PNG_1PX);
    assert.ok(put.ok);
    writeFileSync(join(dir, 'attachments', put.url.slice(IMAGE_URL_PREFIX.length)), 'changed');
    assert.equal(await store.read(put.url), undefined);
    assert.equal(await store.read(`${IMAGE_URL_PREFIX}../../etc/passwd`), undefined);
    assert.equal(await store.read('data:image/png;base64,AAAA'), undefined);
  });
});

describe('attachments: projectImages', () => {
  const ref = `${IMAGE_URL_PREFIX}${'a'.repeat(64)}.png`;
  const messages: ChatMessage[] = [
    { role: 'system', content: 'sys' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is wrong here?' },
        { type: 'image_url', image_url: { url: ref } },
      ],
    },
  ];

  it('loads stored images as data URLs for a model that takes images', async () => {
    const out = await projectImages(messages, {
      supportsImages: true,
      load: async () => 'data:image/png;base64,QQ==',
    });
    assert.equal(out[0], messages[0], 'messages without images are left as they are');
    assert.deepEqual(out[1], {
      role: 'user',
      content: [
        { type: 'text', text: 'What is wrong here?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,QQ==' } },
      ],
    });
  });

  it('leaves images out with a note for a model that takes none, and says when one is missing', async () => {
    const without = await projectImages(messages, {
      supportsImages: false,
      load: async () => assert.fail('nothing is loaded for a model without images'),
    });
    assert.deepEqual(without[1], { role: 'user', content: `What is wrong here?\n\n${IMAGE_LEFT_OUT_NOTE}` });
    const missing = await projectImages(messages, { supportsImages: true, load: async () => undefined });
    assert.deepEqual(missing[1], { role: 'user', content: `What is wrong here?\n\n${IMAGE_MISSING_NOTE}` });
  });
});

describe('attachments: images through a conversation', function () {
  this.timeout(20_000);
  let h: Harness;
  let dir: string;
  afterEach(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const userParts = (body: unknown) =>
    ((body as { messages: { role: string; content: unknown }[] }).messages
      .filter((m) => m.role === 'user')
      .at(-1)?.content ?? []) as { type: string; image_url?: { url: string }; text?: string }[];

  it('an attached image reaches the server as image content; the event keeps only its reference', async () => {
    dir = mkdtempSync(join(tmpdir(), 'logbook-conv-'));
    h = await createHarness({ name: 'image', turns: [{ reply: { content: 'A red pixel.' } }] });
    const store = new ImageStore(dir);
    const put = await store.put(PNG_1PX);
    assert.ok(put.ok);
    const c = await h.open({ images: { supportsImages: () => true, load: (u) => store.dataUrl(u) } });
    await c.sendMessage('What is in this image?', { images: [put.url] });
    assert.equal(await c.run(), 'finished');
    const parts = userParts(h.llm.completionBodies()[0]);
    assert.deepEqual(parts.at(-1), {
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG_1PX.toString('base64')}` },
    });
    const message = (await c.events()).find((e) => e.kind === 'MessageEvent');
    assert.ok(message?.kind === 'MessageEvent');
    assert.deepEqual(message.llm_message.content.at(-1), { type: 'image', image_urls: [put.url] });
    assert.ok(!JSON.stringify(message).includes('base64'), 'no inline bytes in the event');
  });

  it('a model without images gets the note instead, as plain text', async () => {
    dir = mkdtempSync(join(tmpdir(), 'logbook-conv-'));
    h = await createHarness({ name: 'no-image', turns: [{ reply: { content: 'ok' } }] });
    const store = new ImageStore(dir);
    const put = await store.put(PNG_1PX);
    assert.ok(put.ok);
    const c = await h.open({ images: { supportsImages: () => false, load: (u) => store.dataUrl(u) } });
    await c.sendMessage('Look', { images: [put.url], attachments: ['--- Attached: x ---\nbody'] });
    assert.equal(await c.run(), 'finished');
    const body = h.llm.completionBodies()[0] as { messages: { role: string; content: unknown }[] };
    assert.equal(
      body.messages.at(-1)?.content,
      `Look\n\n--- Attached: x ---\nbody\n\n${IMAGE_LEFT_OUT_NOTE}`,
    );
  });

  it('file_editor view of a PNG returns image content, sent to the model after the tool result', async () => {
    dir = mkdtempSync(join(tmpdir(), 'logbook-conv-'));
    h = await createHarness({
      name: 'view-image',
      turns: [
        {
          reply: {
            toolCalls: [
              {
                id: 'call_view',
                name: 'file_editor',
                arguments: { command: 'view', path: 'shot.png', security_risk: 'LOW' },
              },
            ],
          },
        },
        { match: { toolResultIncludes: 'image/png' }, reply: { content: 'It is one pixel.' } },
      ],
    });
    writeFileSync(join(h.workspace, 'shot.png'), PNG_1PX);
    const store = new ImageStore(dir);
    const c = await h.open({
      images: { supportsImages: () => true, load: (u) => store.dataUrl(u) },
      ports: { images: store },
    });
    await c.sendMessage('Look at shot.png');
    assert.equal(await c.run(), 'finished');
    const obs = (await c.events()).find((e) => e.kind === 'ObservationEvent');
    assert.ok(obs?.kind === 'ObservationEvent');
    const image = obs.observation.content?.find((p) => p.type === 'image');
    assert.ok(image?.type === 'image' && image.image_urls[0]?.startsWith(IMAGE_URL_PREFIX));
    const body = h.llm.completionBodies()[1] as { messages: { role: string; content: unknown }[] };
    const last = body.messages.at(-1)!;
    assert.equal(last.role, 'user');
    assert.match(JSON.stringify(last.content), /The image returned by the file_editor call call_view/);
    assert.deepEqual(userParts(body).at(-1), {
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG_1PX.toString('base64')}` },
    });
  });
});

describe('attachments: inlineImages (exports)', () => {
  it('replaces stored references by data URLs and leaves other URLs and events alone', async () => {
    const { createEvent } = await import('../../../src/core/events');
    const ref = `${IMAGE_URL_PREFIX}${'b'.repeat(64)}.gif`;
    const { inlineImages } = await import('../../../src/core/attachments/inline-images');
    const message = createEvent('MessageEvent', {
      source: 'user',
      llm_message: {
        role: 'user',
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', image_urls: [ref, 'https://example.com/a.png'] },
        ],
      },
    } as never);
    const out = await inlineImages(message, async (u) =>
      u === ref ? 'data:image/gif;base64,R0lG' : undefined,
    );
    assert.ok(out.kind === 'MessageEvent');
    assert.deepEqual(out.llm_message.content[1], {
      type: 'image',
      image_urls: ['data:image/gif;base64,R0lG', 'https://example.com/a.png'],
    });
    const gone = await inlineImages(message, async () => undefined);
    assert.ok(gone.kind === 'MessageEvent');
    assert.deepEqual(
      gone.llm_message.content[1],
      message.llm_message.content[1],
      'a missing file keeps its reference',
    );
    const text = createEvent('MessageEvent', {
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'x' }] },
    } as never);
    assert.equal(await inlineImages(text, async () => assert.fail('not called')), text);
  });
});
