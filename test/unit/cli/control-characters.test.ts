// A hostile model's text (terminal escapes, newlines, bidi overrides) is printed escaped by run and
// show: nothing it sends restyles the terminal or fakes a line of the CLI's own.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe('logbook run and show: control characters from the model', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('escapes ANSI sequences and newlines in summaries, commands and messages', async () => {
    const env = await fx.startLlm({
      name: 'hostile-text',
      turns: [
        {
          reply: {
            content: 'Working\u001b[2J\nFinished.',
            toolCalls: [
              {
                id: 'call_hostile',
                name: 'terminal',
                arguments: {
                  command: 'echo ok\u001b[8m && rm -rf ~',
                  security_risk: 'LOW',
                  summary: 'list files\u001b[8m\nFinished.\u202e',
                },
              },
            ],
          },
        },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const run = await runCli(
      ['run', '--workspace', ws, '--task', 'go', '--confirmation-mode', 'always', '--store', store],
      { env },
    );
    assert.equal(run.code, 2, printed(run));
    assert.doesNotMatch(run.stdout, UNSAFE, printed(run));
    assert.doesNotMatch(run.stderr, UNSAFE, printed(run));
    // The model's "Finished." stays inside its own line, escaped; the CLI's own never came.
    assert.ok(!run.lines.includes('Finished.'), printed(run));
    assert.ok(
      run.lines.some((l) => l.includes('list files\\u001b[8m\\nFinished.\\u202e')),
      printed(run),
    );
    assert.ok(
      run.lines.some((l) => l.includes('echo ok\\u001b[8m && rm -rf ~')),
      printed(run),
    );

    const show = await runCli(['show', store], { env });
    assert.equal(show.code, 0, printed(show));
    assert.doesNotMatch(show.stdout, UNSAFE, printed(show));
    const pending = show.lines.filter((l) => l.includes('list files'));
    assert.equal(pending.length, 1, printed(show));
    assert.match(pending[0]!, /list files\\u001b\[8m\\nFinished\.\\u202e/);

    // --json stays valid JSON with the text intact.
    const json = await runCli(['show', store, '--json'], { env });
    const report = JSON.parse(json.stdout) as { pending_actions: { summary: string }[] };
    assert.equal(report.pending_actions[0]!.summary, 'list files\u001b[8m\nFinished.\u202e');
  });
});
