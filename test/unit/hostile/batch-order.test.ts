// A model that gets out of the workspace with the order of its own batch: one reply links a folder
// outside into the workspace (`ln -s <outside> link`), then creates `link/x.txt`, which is an
// ordinary workspace file when the reply arrives. The real CLI runs as a child process against
// the scripted model in the default `risky` mode; the user approves the batch because the link
// asks. The create recorded where its path led when it was rated (inside); when it runs, its path
// leads outside, so it is refused with a reason naming the outside path: nothing is written outside
// and nothing recorded is lost.
import * as assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { type CliResult, jsonLines, printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson } from '../cli/fixtures';

type Json = Record<string, unknown>;

describe('hostile model: a batch whose first call redirects the path of the next', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('the create through a link made by the same batch is refused, naming the outside path', async () => {
    const base = realpathSync(fx.tmp('logbook-hostile-batch-'));
    const ws = join(base, 'ws');
    const outside = join(base, 'outside');
    const store = join(base, 'store');
    mkdirSync(ws);
    mkdirSync(outside);
    const env = await fx.startLlm({
      name: 'hostile-batch-order',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_ln',
                name: 'terminal',
                arguments: { command: `ln -s ${outside} link`, security_risk: 'LOW', summary: 'a link' },
              },
              {
                id: 'call_create',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: 'link/x.txt',
                  file_text: 'escaped\n',
                  security_risk: 'LOW',
                  summary: 'an ordinary file',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'now leads to' },
          reply: { content: 'ok' },
        },
      ],
    });

    // The link asks (ln changes files); the create is LOW when proposed: no link exists yet.
    const run = await runCli(['run', '--workspace', ws, '--store', store, '--json', '--task', 'set up'], {
      env,
    });
    assert.equal(run.code, 2, printed(run));
    assert.ok(!existsSync(join(ws, 'link')), 'nothing ran before approval');

    // The user approves the whole batch. The link runs; the create, which recorded where its path
    // led when it was rated, finds it leads outside now and is refused: nothing is written.
    const approve = await runCli(['approve', store, '--json'], { env });
    assert.equal(approve.code, 0, printed(approve));
    assert.ok(lstatSync(join(ws, 'link')).isSymbolicLink(), 'the approved link ran');
    assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');

    const log = await readLogJson(store);
    const create = log.find((e) => e.kind === 'ActionEvent' && e.tool_call_id === 'call_create')!;
    assert.equal((create.action as Json).real_path, join(ws, 'link', 'x.txt'), 'where it led when rated');
    assert.deepEqual(observedCalls(log), ['call_ln', 'call_create']);
    const answer = log.find((e) => e.kind === 'ObservationEvent' && e.tool_call_id === 'call_create')!;
    const text = JSON.stringify(answer.observation);
    assert.ok(text.includes(`now leads to ${outside}/x.txt`), `the refusal names the outside path: ${text}`);
    assert.match(text, /Nothing was read or written/);
    assert.match(JSON.stringify(fx.llm!.completionBodies().at(-1)), /now leads to/, 'the model reads why');
    assertNothingLost([run, approve], log);
  });
});

function observedCalls(log: readonly Json[]): unknown[] {
  return log.filter((e) => e.kind === 'ObservationEvent').map((e) => e.tool_call_id);
}

/** Every event the CLI printed is in the log. */
function assertNothingLost(results: readonly CliResult[], log: readonly Json[]): void {
  const ids = new Set(log.map((e) => e.id));
  for (const r of results) {
    for (const e of jsonLines(r).filter((x) => typeof x.id === 'string')) {
      assert.ok(ids.has(e.id), `event ${String(e.id)} was printed but is not in the log`);
    }
  }
}
