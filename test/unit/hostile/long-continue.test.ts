import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventFileName } from '../../../src/core/log';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, openHandsSampleLayout, readLogJson } from '../cli/fixtures';

describe('logbook run: continuing a long imported conversation', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  for (const mode of ['act', 'plan'] as const)
    it(`${mode} mode: condenses it into one small record that exports as the SDK lists it and imports back as it was`, async () => {
      const store = join(fx.tmp(), 'conv');
      const imported = await runCli([
        'import-openhands',
        openHandsSampleLayout(fx.tmp(), 1500),
        '--store',
        store,
      ]);
      assert.equal(imported.code, 0, printed(imported));
      const env = await fx.startLlm({
        name: 'condense-then-finish',
        turns: [
          { match: { hasTools: false }, reply: { content: 'Summary of the earlier work.' } },
          {
            match: { hasTools: true },
            reply: { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] },
          },
        ],
      });
      const r = await runCli(
        ['run', '--workspace', fx.tmp(), '--store', store, '--mode', mode, '--task', 'go on'],
        {
          env,
        },
      );
      assert.equal(r.code, 0, printed(r));
      // The summarizer was shown the newest forgotten events that fit, not the whole log.
      const summaryRequest = JSON.stringify(fx.llm!.completionBodies()[0]);
      assert.ok(summaryRequest.length < 400_000, `${summaryRequest.length} bytes`);

      const log = await readLogJson(store);
      const condensations = log.filter((e) => e.kind === 'Condensation');
      assert.equal(condensations.length, 1);
      const c = condensations[0]!;
      const range = c.forgotten_range as { count: number };
      assert.ok(range.count > 256, `forgot ${range.count}`);
      assert.deepEqual(c.forgotten_event_ids, []);
      assert.ok(JSON.stringify(c).length < 1024, `a ${JSON.stringify(c).length}-byte record`);
      assert.match(r.stdout, new RegExp(`condensed: ${range.count} event\\(s\\) forgotten`));

      // The SDK's files list every forgotten id (cleanup validates them against its schemas)...
      const out = join(fx.tmp(), 'export');
      const exported = await runCli(['export-openhands', store, out]);
      assert.equal(exported.code, 0, printed(exported));
      const file = join(out, 'events', eventFileName(log.indexOf(c), c.id as string));
      const sdk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      assert.equal(sdk.forgotten_range, undefined);
      assert.equal((sdk.forgotten_event_ids as string[]).length, range.count);
      // ...and an import of them gives the record back as Logbook stored it.
      const again = join(fx.tmp(), 'again');
      const reimported = await runCli(['import-openhands', out, '--store', again]);
      assert.equal(reimported.code, 0, printed(reimported));
      const back = (await readLogJson(again)).find((e) => e.id === c.id);
      assert.deepEqual(back, c);
    });
});
