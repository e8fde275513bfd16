// A GET that keeps to the address rules: the name is resolved here, every address it gives is
// checked, and the connection goes to the checked address (so a second, different DNS answer
// cannot redirect it). Redirects are followed by hand and each hop is checked the same way. The
// body is capped, the whole fetch has a deadline, and the result names where it really came from.
// node:https (TLS), node:http and node:dns load on the first fetch: every `logbook run` offers the
// fetch tool, few use it, and TLS alone took a short run some 4 ms to load.
import type * as http from 'node:http';
import { isIP } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { hostAllowed } from '../sandbox/network-proxy';
import { blockedAddressReason } from './address-rules';

export interface WebRules {
  /** `logbook.web.allowPrivateAddresses`: loopback, private, link-local… and `data:` URLs are allowed. */
  allowPrivateAddresses: boolean;
  /** `logbook.web.allowedHosts`: hosts the user trusts (fetched without asking; still address-checked). */
  allowedHosts: readonly string[];
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardedFetchOptions extends WebRules {
  maxBytes: number;
  timeoutMs: number;
  /** Redirects followed before giving up. */
  maxRedirects?: number;
  /** Name resolution (tests give their own); dns.lookup with every address by default. */
  lookup?: Lookup;
  /** The first hop's target as already checked (by `checkTarget`), so it is not resolved twice. */
  first?: CheckedTarget;
  signal?: AbortSignal;
}

export interface CheckedTarget {
  url: URL;
  /** The address the connection goes to; undefined for a `data:` URL. */
  address?: string;
  family?: number;
}

export interface FetchedPage {
  /** The URL the body came from, after redirects. */
  url: string;
  /** The address connected to for the final URL (empty for a `data:` URL). */
  address: string;
  /** Every URL before the final one, in order. */
  redirects: string[];
  status: number;
  /** The media type, lower case, without parameters ('' when the server named none). */
  contentType: string;
  body: Buffer;
  /** The body was longer than `maxBytes` and was cut there. */
  cut: boolean;
}

/** A fetch the address rules refused: its message says why, for the user to read. */
export class FetchRefused extends Error {
  override name = 'FetchRefused';
}

export const MAX_REDIRECTS = 5;

const defaultLookup: Lookup = async (hostname) =>
  (await (await import('node:dns/promises')).lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family,
  }));

/** Whether `url` (a URL's text) names a host on the user's list. */
export function isAllowedHost(url: string, rules: WebRules): boolean {
  try {
    return hostAllowed(bareHost(new URL(url)), rules.allowedHosts);
  } catch {
    return false;
  }
}

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Parses and checks one target: its scheme, then every address its name resolves to. Throws
 * FetchRefused when a rule forbids it.
 */
export async function checkTarget(
  text: string,
  rules: WebRules,
  lookup: Lookup = defaultLookup,
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchRefused(`${text} is not a URL`);
  }
  if (url.protocol === 'data:') {
    if (rules.allowPrivateAddresses) return { url };
    throw new FetchRefused('data: URLs are not fetched (logbook.web.allowPrivateAddresses allows them)');
  }
  if (url.protocol === 'file:')
    throw new FetchRefused('file: URLs are not fetched; mention the file itself instead');
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchRefused(`${url.protocol} URLs are not fetched; only http and https are`);
  if (url.username || url.password)
    throw new FetchRefused('URLs with a user name or password are not fetched');
  const host = bareHost(url);
  let found: ResolvedAddress[];
  if (isIP(host)) found = [{ address: host, family: isIP(host) }];
  else {
    try {
      found = await lookup(host);
    } catch (err) {
      throw new FetchRefused(
        `${host} could not be resolved (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  }
  if (found.length === 0) throw new FetchRefused(`${host} has no address`);
  if (!rules.allowPrivateAddresses) {
    // Every answer is checked, not only the one used: a name that also points inward is refused.
    for (const a of found) {
      const why = blockedAddressReason(a.address);
      if (why)
        throw new FetchRefused(
          `${host === a.address ? host : `${host} resolves to ${a.address}, which`} is ${why}; logbook.web.allowPrivateAddresses allows it`,
        );
    }
  }
  const first = found[0]!;
  return { url, address: first.address, family: first.family };
}

/** GETs `text`, following up to five redirects, each hop checked by `checkTarget`. */
export async function guardedFetch(text: string, opts: GuardedFetchOptions): Promise<FetchedPage> {
  try {
    return await follow(text, opts);
  } catch (err) {
    // The deadline ends the request (AbortError) or the reading (TimeoutError); the caller's own
    // signal is reported as it is.
    if (err instanceof Error && /^(Abort|Timeout)Error$/.test(err.name) && !opts.signal?.aborted)
      throw new Error(`${text} gave no complete answer within ${Math.round(opts.timeoutMs / 1000)} s`);
    throw err;
  }
}

async function follow(text: string, opts: GuardedFetchOptions): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const max = opts.maxRedirects ?? MAX_REDIRECTS;
  const redirects: string[] = [];
  let target = opts.first ?? (await checkTarget(text, opts, opts.lookup));
  for (;;) {
    if (target.url.protocol === 'data:') return fetchData(target.url, redirects, opts.maxBytes);
    const response = await request(target, signal, opts.timeoutMs);
    const location = response.headers.location;
    if (response.statusCode && [301, 302, 303, 307, 308].includes(response.statusCode) && location) {
      response.resume();
      if (redirects.length >= max)
        throw new FetchRefused(`more than ${max} redirects, the last to ${location}`);
      redirects.push(target.url.href);
      let next: string;
      try {
        next = new URL(location, target.url).href;
      } catch {
        throw new FetchRefused(`a redirect to ${location}, which is not a URL`);
      }
      // A redirect may never lead to data: (a server could hand any content as if from itself).
      if (next.startsWith('data:')) throw new FetchRefused('a redirect to a data: URL is not followed');
      try {
        target = await checkTarget(next, opts, opts.lookup);
      } catch (err) {
        if (err instanceof FetchRefused)
          throw new FetchRefused(`${target.url.href} redirected to ${next}: ${err.message}`);
        throw err;
      }
      continue;
    }
    const { body, cut } = await readCapped(decoded(response), opts.maxBytes, signal);
    return {
      url: target.url.href,
      address: target.address ?? '',
      redirects,
      status: response.statusCode ?? 0,
      contentType: mediaType(response.headers['content-type']),
      body,
      cut,
    };
  }
}

async function request(
  target: CheckedTarget,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<http.IncomingMessage> {
  const { url, address, family } = target;
  const client = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        signal,
        timeout: timeoutMs,
        agent: false,
        headers: { accept: 'text/html,text/plain,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br' },
        // The checked address, whatever the name resolves to now; TLS still verifies the name.
        lookup: (_host, options, callback) => {
          const cb = callback as (...args: unknown[]) => void;
          if ((options as { all?: boolean }).all) cb(null, [{ address: address!, family: family! }]);
          else cb(null, address!, family!);
        },
      },
      resolve,
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
    req.on('error', reject);
    req.end();
  });
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

/** Reads at most `max` bytes (after decompression, so a small compressed bomb is capped too). */
async function readCapped(
  stream: Readable,
  max: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  try {
    for await (const chunk of stream) {
      signal.throwIfAborted();
      const b = chunk as Buffer;
      chunks.push(b);
      size += b.length;
      if (size > max) {
        cut = true;
        break;
      }
    }
  } finally {
    stream.destroy();
  }
  return { body: Buffer.concat(chunks).subarray(0, max), cut };
}

async function fetchData(url: URL, redirects: string[], max: number): Promise<FetchedPage> {
  const response = await fetch(url);
  const all = Buffer.from(await response.arrayBuffer());
  return {
    url: url.href,
    address: '',
    redirects,
    status: response.status,
    contentType: mediaType(response.headers.get('content-type') ?? undefined),
    body: all.subarray(0, max),
    cut: all.length > max,
  };
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}
