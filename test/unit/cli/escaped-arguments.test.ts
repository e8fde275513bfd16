// A tool call whose raw arguments write the key with JSON escapes (`\u0073k-...`, `sk\u002d...`):
// the parsed command holds the key, so the raw string must not keep it either, in the log or in
// the OpenHands export, in any escaping.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture, onlyConversationDir, SECRET_KEY } from './fixtures';

/** Every file under `dir`, with its text as written and with JSON escapes decoded. */
function filesWithKey(dir: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      hits.push(...filesWithKey(p));
      continue;
    }
    const text = readFileSync(p, 'utf8');
    const decoded = text
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\\//g, '/');
    if (text.includes(SECRET_KEY) || decoded.includes(SECRET_KEY)) hits.push(p);
  }
  return hits;
}

describe('logbook run: a key written with JSON escapes in a tool call`s arguments', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  for (const [what, escaped] of [
    ['\\u0073k-', `\\u0073${SECRET_KEY.slice(1)}`],
    ['sk\\u002d', SECRET_KEY.replace('-', '\\u002d')],
  ] as const) {
    it(`${what}: neither the log nor the export holds the key, escaped or not`, async () => {
      const env = await fx.startLlm({
        name: 'escaped-arguments',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: {
              toolCalls: [
                {
                  id: 'call_escaped',
                  name: 'terminal',
                  // Sent verbatim: valid JSON whose command, once parsed, is `echo <key>`.
                  arguments: `{"command":"echo ${escaped}","security_risk":"LOW","summary":"echo it"}`,
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
        ],
      });
      const ws = fx.tmp();
      const run = await runCli(
        ['run', '--workspace', ws, '--task', 'echo it', '--confirm', 'never', '--json'],
        {
          env,
        },
      );
      assert.equal(run.code, 0, printed(run));
      const dir = onlyConversationDir(ws);
      const action = run.lines
        .map((l) => JSON.parse(l) as { kind: string; tool_call?: { arguments: string } })
        .find((e) => e.kind === 'ActionEvent')!;
      // Still JSON, with the marker where the key was.
      const args = JSON.parse(action.tool_call!.arguments) as { command: string };
      assert.equal(args.command, 'echo [redacted API key]');
      assert.deepEqual(filesWithKey(dir), [], 'the log holds the key');

      const exportDir = join(fx.tmp(), 'export');
      const exported = await runCli(['export-openhands', dir, exportDir], { env });
      assert.equal(exported.code, 0, printed(exported));
      assert.deepEqual(filesWithKey(exportDir), [], 'the export holds the key');
      assert.ok(!run.stdout.includes(escaped) && !run.stdout.includes(SECRET_KEY), printed(run));
    });
  }
});
