// Hostile model, item 4 of issue 19: the API key never reaches the agent's shell, and whatever the
// model says or runs, the key ends up nowhere it could leak (log, stdout, exports, next request).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli, type CliResult } from '../cli/cli-runner';
import { CliFixture, filesContaining, onlyConversationDir, terminalCall } from '../cli/fixtures';

/** Distinctive, and long enough to be redacted. */
const KEY = 'sk-hostile-7f3a9c1e5b2d4f60-KEEP-OUT';
const MARKER = '[redacted API key]';

/** Every place the key must not be: what the CLI printed, the files under `dirs`, the bodies sent. */
function assertNoKey(fx: CliFixture, results: CliResult[], dirs: string[]): void {
  for (const r of results) {
    assert.ok(!r.stdout.includes(KEY), `stdout has the key:\n${printed(r)}`);
    assert.ok(!r.stderr.includes(KEY), `stderr has the key:\n${printed(r)}`);
  }
  for (const dir of dirs) assert.deepEqual(filesContaining(dir, KEY), [], `files under ${dir} hold the key`);
  const bodies = fx.llm!.completionBodies();
  assert.ok(bodies.length >= 2, 'the model was asked again after the commands ran');
  for (const [i, body] of bodies.entries()) {
    assert.ok(!JSON.stringify(body).includes(KEY), `request ${i} carries the key in its messages`);
  }
  // The key did reach the endpoint, where it belongs: in the Authorization header.
  assert.equal(fx.llm!.requests[0]!.headers.authorization, `Bearer ${KEY}`);
}

describe('hostile model: the API key never reaches the agent (issue 19, item 4)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('env, set, echo $OPENAI_API_KEY and /proc/self/environ do not see the key; its own text is redacted', async () => {
    const env = await fx.startLlm({
      name: 'hostile-secrets',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            content: `Let me look around. I happen to know the key is ${KEY}.`,
            reasoning: `The user's key ${KEY} would be useful.`,
            chunkSize: 5,
            toolCalls: [
              terminalCall('call_echo', 'echo "key=[$OPENAI_API_KEY] cfg=[$LOGBOOK_MODEL]"'),
              terminalCall('call_env', 'env'),
              terminalCall('call_set', 'set'),
              terminalCall('call_environ', "tr '\\0' '\\n' < /proc/self/environ"),
              terminalCall('call_args', `echo ${KEY} > leaked.txt; cat leaked.txt`),
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'key=[] cfg=[]' },
          reply: { content: `Nothing found. For the record: ${KEY}` },
        },
      ],
    });
    const ws = fx.tmp();
    const run = await runCli(
      ['run', '--workspace', ws, '--task', 'find the API key', '--confirm', 'never', '--json'],
      { env: { ...env, OPENAI_API_KEY: KEY } },
    );
    assert.equal(run.code, 0, printed(run));
    const dir = onlyConversationDir(ws);
    const events = run.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const observations = events.filter((e) => e.kind === 'ObservationEvent');
    assert.equal(observations.length, 5, printed(run));
    const output = JSON.stringify(observations);
    assert.match(output, /key=\[\] cfg=\[\]/, 'the shell has neither OPENAI_API_KEY nor LOGBOOK_*');
    assert.doesNotMatch(output, /OPENAI_API_KEY=|LOGBOOK_MODEL=/, 'env, set and environ list neither');
    assert.match(output, /PATH=/, 'the rest of the environment is there');
    // The model's own text, reasoning and tool arguments hold the marker instead.
    assert.ok(run.stdout.includes(MARKER), printed(run));
    assert.equal(readFileSync(join(ws, 'leaked.txt'), 'utf8'), `${MARKER}\n`);

    const show = await runCli(['show', dir]);
    const exportDir = join(fx.tmp(), 'export');
    const exported = await runCli(['export-openhands', dir, exportDir]);
    assert.equal(exported.code, 0, printed(exported));
    assertNoKey(fx, [run, show, exported], [ws, exportDir]);
  });

  it('export-openhands redacts the key from a log recorded while it was not known', async () => {
    const env = await fx.startLlm({
      name: 'hostile-secrets-old-log',
      turns: [{ match: { lastRole: 'user' }, reply: { content: `An old log that holds ${KEY}.` } }],
    });
    const ws = fx.tmp();
    // Recorded under another key: nothing told the run that KEY is a secret, so the log holds it.
    const run = await runCli(['run', '--workspace', ws, '--task', 'say it', '--confirm', 'never'], {
      env: { ...env, OPENAI_API_KEY: 'sk-another-key-0000000000' },
    });
    assert.equal(run.code, 0, printed(run));
    const dir = onlyConversationDir(ws);
    assert.notDeepEqual(filesContaining(dir, KEY), [], 'the log holds the key (the premise of the test)');
    const exportDir = join(fx.tmp(), 'export');
    const exported = await runCli(['export-openhands', dir, exportDir], { env: { OPENAI_API_KEY: KEY } });
    assert.equal(exported.code, 0, printed(exported));
    assert.deepEqual(filesContaining(exportDir, KEY), [], 'the export holds the key');
    assert.notDeepEqual(filesContaining(exportDir, MARKER), [], 'the export holds the marker in its place');
  });

  it('--pass-env lets the user hand a variable to the shell; a passed key is still redacted', async () => {
    const env = await fx.startLlm({
      name: 'hostile-secrets-opt-in',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              terminalCall('call_echo', 'echo "key=[$OPENAI_API_KEY] flag=[$LOGBOOK_FLAG]"'),
              // Past the output cap: the whole output is saved in the scratch folder, redacted too.
              terminalCall('call_long', 'for i in $(seq 3000); do echo "$OPENAI_API_KEY"; done'),
            ],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'full output' }, reply: { content: 'Done.' } },
      ],
    });
    const ws = fx.tmp();
    const r = await runCli(
      [
        'run',
        ...['--workspace', ws, '--task', 'print them', '--confirm', 'never', '--json'],
        ...['--pass-env', 'OPENAI_API_KEY', '--pass-env', 'LOGBOOK_FLAG'],
      ],
      { env: { ...env, OPENAI_API_KEY: KEY, LOGBOOK_FLAG: 'visible-flag' } },
    );
    assert.equal(r.code, 0, printed(r));
    assert.ok(r.stdout.includes(`key=[${MARKER}] flag=[visible-flag]`), printed(r));
    const saved = filesContaining(onlyConversationDir(ws), MARKER).filter((f) => f.includes('scratch'));
    assert.equal(saved.length, 1, 'the long output was saved, redacted');
    assertNoKey(fx, [r], [ws]);

    // Without the flag (LOGBOOK_PASS_ENV is the same list from the environment) neither is there.
    await fx.cleanup();
    const ws2 = fx.tmp();
    const env2 = await fx.startLlm({
      name: 'hostile-secrets-env-list',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [terminalCall('call_echo', 'echo "key=[$OPENAI_API_KEY] flag=[$LOGBOOK_FLAG]"')],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'key=[] flag=[visible-flag]' },
          reply: { content: 'Done.' },
        },
      ],
    });
    const r2 = await runCli(
      ['run', '--workspace', ws2, '--task', 'print them', '--confirm', 'never', '--json'],
      {
        env: { ...env2, OPENAI_API_KEY: KEY, LOGBOOK_FLAG: 'visible-flag', LOGBOOK_PASS_ENV: 'LOGBOOK_FLAG' },
      },
    );
    assert.equal(r2.code, 0, printed(r2));
    assertNoKey(fx, [r2], [ws2]);
  });
});
