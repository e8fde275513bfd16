// `logbook run` with the scripted model calling the fetch tool on a real local HTTP server: with
// private addresses allowed and the host listed it is fetched unasked, its page read as Markdown
// inside the untrusted wrapper; with the default rules the loopback target is refused, unfetched.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { type LocalSite, startSite } from '../web/local-web';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const PAGE = `<!doctype html><html><head><title>Changelog</title></head><body><main>
<h1>Changelog</h1><h2>Version 2.0</h2><ul><li>Faster start</li><li>New <code>--json</code> flag</li></ul>
<p>See <a href="/docs">the docs</a> for the details of every change listed above, with examples.</p>
</main></body></html>`;

describe('logbook run: the fetch tool', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  let site: LocalSite;
  beforeEach(async () => {
    site = await startSite({
      '/changelog.html': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
    });
  });
  afterEach(async () => {
    await site.close();
    await fx.cleanup();
  });

  async function run(
    extraEnv: Record<string, string>,
    resultIncludes: string,
    store = join(fx.tmp(), 'conv'),
  ) {
    const url = `http://127.0.0.1:${site.port}/changelog.html`;
    const env = await fx.startLlm({
      name: 'cli-fetch',
      turns: [
        {
          match: { hasTools: true },
          reply: { toolCalls: [{ id: 'call_fetch', name: 'fetch', arguments: { url } }] },
        },
        { match: { lastRole: 'tool', toolResultIncludes: resultIncludes }, reply: { content: 'Read.' } },
      ],
    });
    const ws = fx.tmp();
    const result = await runCli(
      ['run', '--workspace', ws, '--task', 'what changed?', '--store', store, '--json'],
      { env: { ...env, ...extraEnv } },
    );
    const offered = (fx.llm!.completionBodies()[0]?.tools ?? []) as { function: { name: string } }[];
    return { result, url, offered: offered.map((t) => t.function.name) };
  }

  it('fetches an allowed host unasked and gives the model its Markdown, marked untrusted', async () => {
    const { result, url, offered } = await run(
      { LOGBOOK_WEB_ALLOW_PRIVATE: 'true', LOGBOOK_WEB_ALLOW_HOSTS: '127.0.0.1' },
      '## Version 2.0',
    );
    assert.equal(result.code, 0, printed(result));
    assert.ok(offered.includes('fetch'), offered.join());
    assert.ok(!offered.includes('web_search'), 'no search service is configured');
    const action = jsonLines(result).find((e) => e.kind === 'ActionEvent')!;
    assert.deepEqual(action.action, {
      url,
      max_length: 20_000,
      start_index: 0,
      raw: false,
      kind: 'FetchAction',
      checked_url: url,
      address: '127.0.0.1',
    });
    const obs = jsonLines(result).find((e) => e.kind === 'ObservationEvent')!.observation as {
      kind: string;
      content: { text: string }[];
    };
    assert.equal(obs.kind, 'FetchObservation');
    const text = obs.content[0]!.text;
    assert.match(
      text,
      new RegExp(`Fetched ${url.replace(/\./g, '\\.')} \\(HTTP 200, text/html, from 127\\.0\\.0\\.1\\)`),
    );
    assert.match(
      text,
      /<untrusted_web_content source="[^"]+">\nTitle: Changelog\n\n[\s\S]*^- +New `--json` flag$/m,
    );
    assert.match(text, new RegExp(`\\[the docs\\]\\(http://127\\.0\\.0\\.1:${site.port}/docs\\)`));
    assert.deepEqual(site.hits, ['/changelog.html']);
  });

  it('with the default rules refuses the loopback target without connecting', async () => {
    const { result } = await run({}, 'Not fetched');
    assert.equal(result.code, 0, printed(result));
    const obs = jsonLines(result).find((e) => e.kind === 'ObservationEvent')!.observation as {
      content: { text: string }[];
      is_error: boolean;
    };
    assert.equal(obs.is_error, true);
    assert.match(
      obs.content[0]!.text,
      /127\.0\.0\.1 is a loopback address \(this machine\); logbook\.web\.allowPrivateAddresses allows it/,
    );
    assert.deepEqual(site.hits, []);
  });

  it('holds a fetch from a new host; show names the URL and address; approve fetches it', async () => {
    const store = join(fx.tmp(), 'conv');
    const env = { LOGBOOK_WEB_ALLOW_PRIVATE: 'true' };
    const { result, url } = await run(env, '## Version 2.0', store);
    assert.equal(result.code, 2, printed(result)); // waits for confirmation
    assert.deepEqual(site.hits, []);
    const shown = JSON.parse((await runCli(['show', store, '--json'], { env: fx.env() })).stdout) as {
      pending_actions: { tool: string; summary: string; risk: string; reasons: string[] }[];
    };
    const [held] = shown.pending_actions;
    assert.equal(held?.tool, 'fetch');
    assert.equal(held?.risk, 'MEDIUM');
    assert.equal(held?.summary, `${url} (at 127.0.0.1)`);
    assert.match(
      held?.reasons.join() ?? '',
      /fetches http:\/\/127\.0\.0\.1:\d+\/changelog\.html from 127\.0\.0\.1:\d+ at 127\.0\.0\.1, a host not in logbook\.web\.allowedHosts/,
    );
    const approved = await runCli(['approve', store, '--json'], { env: { ...fx.env(), ...env } });
    assert.equal(approved.code, 0, printed(approved));
    assert.deepEqual(site.hits, ['/changelog.html']);
  });
});
