// Web search through a SearXNG instance the user runs or trusts (`logbook.web.searxngUrl`), by
// its JSON API (`/search?q=…&format=json`, which the instance must allow in its settings). The
// instance is the user's own choice, often on this machine, so its address is not held to the
// private-address rule; the pages it lists are, when the agent fetches them.
import type { WebSearchPort, WebSearchResult } from '../../../core/tools';
import { guardedFetch } from './guarded-fetch';

const TIMEOUT_MS = 20_000;
const MAX_BYTES = 2 * 1024 * 1024;

export class SearxngSearch implements WebSearchPort {
  readonly name: string;
  private readonly base: URL;

  constructor(baseUrl: string) {
    let base: URL;
    try {
      base = new URL(baseUrl);
    } catch {
      throw new Error(`logbook.web.searxngUrl is not a URL: ${baseUrl}`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new Error(`logbook.web.searxngUrl must be an http or https URL, not ${base.protocol}`);
    if (base.username || base.password)
      throw new Error('logbook.web.searxngUrl must not carry a user name or password');
    this.base = base;
    this.name = `SearXNG at ${base.origin}`;
  }

  async search(query: string, opts: { limit: number; signal?: AbortSignal }): Promise<WebSearchResult[]> {
    const url = new URL('search', this.base.href.endsWith('/') ? this.base : `${this.base.href}/`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    const page = await guardedFetch(url.href, {
      allowPrivateAddresses: true,
      allowedHosts: [],
      maxRedirects: 2,
      maxBytes: MAX_BYTES,
      timeoutMs: TIMEOUT_MS,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (page.status === 403)
      throw new Error(
        `${this.name} refused the JSON API (HTTP 403): enable "json" in its search.formats setting`,
      );
    if (page.status >= 400) throw new Error(`${this.name} answered HTTP ${page.status}`);
    let body: unknown;
    try {
      body = JSON.parse(page.body.toString('utf8'));
    } catch {
      throw new Error(
        `${this.name} did not answer with JSON${page.cut ? ' (the answer was too large)' : ''}`,
      );
    }
    const results = (body as { results?: unknown }).results;
    if (!Array.isArray(results)) throw new Error(`${this.name} answered without a list of results`);
    return results
      .flatMap((r): WebSearchResult[] => {
        const o = (r ?? {}) as Record<string, unknown>;
        const link = typeof o.url === 'string' ? o.url : '';
        if (!/^https?:\/\//i.test(link)) return [];
        return [
          {
            url: link,
            title: typeof o.title === 'string' ? o.title.trim() : '',
            snippet: typeof o.content === 'string' ? o.content.replace(/\s+/g, ' ').trim().slice(0, 500) : '',
          },
        ];
      })
      .slice(0, opts.limit);
  }
}
