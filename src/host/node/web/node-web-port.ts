// The WebPort on Node: every fetch through the guarded fetch (names resolved and checked, the
// connection to the checked address, every redirect checked again, a size cap and a deadline),
// and what came back made readable: HTML as Markdown, other text as it is, images as images.
// PDFs are not converted: the small libraries that do it would more than double the extension.
import type { WebDocument, WebPort, WebTarget } from '../../../core/tools';
import {
  checkTarget,
  type FetchedPage,
  guardedFetch,
  isAllowedHost,
  type Lookup,
  type WebRules,
} from './guarded-fetch';

export const DEFAULT_PAGE_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const CHECK_TIMEOUT_MS = 10_000;

export interface NodeWebPortOptions {
  /** The user's rules, read at each fetch (a changed setting applies to the next one). */
  rules: () => WebRules;
  /** Largest body read (after decompression); the rest is cut. */
  maxBytes?: number;
  timeoutMs?: number;
  /** Longest the check before the confirmation may take (10 s by default). */
  checkTimeoutMs?: number;
  /** Name resolution (tests give their own). */
  lookup?: Lookup;
}

export class NodeWebPort implements WebPort {
  constructor(private readonly opts: NodeWebPortOptions) {}

  async check(url: string): Promise<WebTarget> {
    const rules = this.opts.rules();
    try {
      // Before the confirmation the loop waits for this: a name that does not resolve soon is refused.
      const limit = this.opts.checkTimeoutMs ?? CHECK_TIMEOUT_MS;
      const target = await withDeadline(
        checkTarget(url, rules, this.opts.lookup),
        limit,
        () => `${new URL(url).host} could not be resolved within ${limit / 1000} s`,
      );
      return {
        ok: true,
        url: target.url.href,
        address: target.address ?? '',
        allowedHost: isAllowedHost(url, rules),
      };
    } catch (err) {
      return { ok: false, url, reason: err instanceof Error ? err.message : String(err) };
    }
  }

  async read(
    url: string,
    opts: { raw: boolean; address?: string; signal?: AbortSignal },
  ): Promise<WebDocument> {
    const rules = this.opts.rules();
    const confirmed = opts.address;
    // The address the user confirmed, checked against today's rules, is where the first hop goes.
    const first = confirmed
      ? await checkTarget(url, rules, async () => [
          { address: confirmed, family: confirmed.includes(':') ? 6 : 4 },
        ])
      : undefined;
    const page = await guardedFetch(url, {
      ...rules,
      maxBytes: this.opts.maxBytes ?? DEFAULT_PAGE_BYTES,
      timeoutMs: this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(first ? { first } : {}),
      ...(this.opts.lookup ? { lookup: this.opts.lookup } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return readable(page, opts.raw, this.opts.maxBytes ?? DEFAULT_PAGE_BYTES);
  }

  isAllowedHost(url: string): boolean {
    return isAllowedHost(url, this.opts.rules());
  }
}

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;
const TEXT_TYPES = /^text\/|[/+](json|xml|javascript|ecmascript|x-sh|x-python|yaml|toml|markdown)$/;

/** The page as the model reads it: Markdown, text, an image, or why it cannot be read. */
export async function readable(page: FetchedPage, raw: boolean, maxBytes: number): Promise<WebDocument> {
  const base = {
    url: page.url,
    address: page.address,
    redirects: page.redirects,
    status: page.status,
    contentType: page.contentType,
    cut: page.cut,
  };
  const type = page.contentType;
  if (IMAGE_TYPES.test(type) || (!type && looksLikeImage(page.body))) {
    if (page.cut) return { ...base, type: 'unreadable', reason: `the image is larger than ${mib(maxBytes)}` };
    return { ...base, type: 'image', bytes: page.body };
  }
  if (type === 'application/pdf' || (!type && page.body.subarray(0, 5).toString('latin1') === '%PDF-'))
    return {
      ...base,
      type: 'unreadable',
      reason: 'it is a PDF, which is not turned into text here; look for an HTML version of the page',
    };
  const text = decode(page.body);
  const html = /html/.test(type) || (!type && /^\s*</.test(text));
  if (type && !TEXT_TYPES.test(type) && !/html/.test(type))
    return { ...base, type: 'unreadable', reason: `${type} is not text` };
  if (!type && text.includes('\u0000'))
    return { ...base, type: 'unreadable', reason: 'it is binary data, not text' };
  if (!html || raw) return { ...base, type: 'text', text };
  // Loaded on first use: the DOM and the converters cost every CLI command and window start a
  // tenth of a second or more when they load up front.
  const { pageMarkdown } = await import('./page-markdown');
  const converted = pageMarkdown(text, page.url);
  return {
    ...base,
    cut: page.cut || converted.cut,
    type: 'text',
    text: converted.markdown,
    ...(converted.title ? { title: converted.title } : {}),
  };
}

function looksLikeImage(body: Buffer): boolean {
  const head = body.subarray(0, 12);
  return (
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) ||
    head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) ||
    head.subarray(0, 4).toString('latin1') === 'GIF8' ||
    (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
  );
}

/** UTF-8 unless the page's first kilobytes name another charset (`<meta charset>`). */
function decode(body: Buffer): string {
  const head = body.subarray(0, 2048).toString('latin1');
  const named = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
  if (named) {
    try {
      return new TextDecoder(named).decode(body);
    } catch {
      // an unknown label: UTF-8
    }
  }
  return new TextDecoder().decode(body);
}

function withDeadline<T>(work: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
