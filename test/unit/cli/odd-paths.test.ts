// Paths a model may send that are odd on purpose: each ends in a clear answer, never a hang, and
// is described as what it is.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const create = (id: string, path: string) => ({
  id,
  name: 'file_editor',
  arguments: {
    command: 'create',
    path,
    file_text: 'hello\n',
    security_risk: 'LOW',
    summary: `create ${path}`,
  },
});

type Json = Record<string, unknown>;
const observationText = (e: Json) =>
  JSON.stringify((e.observation as { content?: unknown }).content ?? e.observation);

describe('file_editor with odd paths (CLI)', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('create through /proc/self/cwd/.. with --confirm never: an error the model reads, not a hang', async () => {
    const env = await fx.startLlm({
      name: 'proc-self-cwd',
      turns: [
        { reply: { toolCalls: [create('call_p', '/proc/self/cwd/../outside/x')] } },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Refused' },
          reply: { content: 'I could not.' },
        },
      ],
    });
    const base = fx.tmp();
    const ws = join(base, 'ws');
    mkdirSync(ws);
    const started = Date.now();
    const r = await runCli(['run', '--workspace', ws, '--task', 'write it', '--confirm', 'never', '--json'], {
      env,
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(r.code, 0, printed(r));
    assert.ok(Date.now() - started < 20_000);
    const obs = jsonLines(r).filter((e) => e.kind === 'ObservationEvent');
    assert.equal(obs.length, 1, printed(r));
    assert.match(
      observationText(obs[0]!),
      // Out of the workspace, refused before any folder is made (confirmations off change nothing).
      /Refused: \/proc\/self\/outside\/x \(a symlink to .*\) is outside the folders the agent may write.*Nothing was written/,
    );
    assert.equal(fx.llm!.remainingTurns(), 0);
    assert.equal(existsSync(join(base, 'outside')), false);
  });

  it('a backslash path is a file name with a backslash, described as such (not as a symlink)', async () => {
    const env = await fx.startLlm({
      name: 'backslash',
      turns: [
        { reply: { toolCalls: [create('call_b', 'src\\a.txt')] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Created.' } },
      ],
    });
    const ws = fx.tmp();
    mkdirSync(join(ws, 'src'));
    const r = await runCli(['run', '--workspace', ws, '--task', 'write it', '--json'], { env });
    assert.equal(r.code, 0, printed(r));
    assert.doesNotMatch(printed(r), /symlink/);
    const obs = jsonLines(r).find((e) => e.kind === 'ObservationEvent')!;
    assert.match(observationText(obs), new RegExp(`Created ${join(ws, 'src')}\\\\\\\\a\\.txt`));
    // Where it says: in the workspace folder, under the name with the backslash.
    assert.equal(readFileSync(join(ws, 'src\\a.txt'), 'utf8'), 'hello\n');
    assert.deepEqual(readdirSync(join(ws, 'src')), []);
    // LOW inside the workspace: the default mode ran it without asking.
    const action = jsonLines(r).find((e) => e.kind === 'ActionEvent')!;
    assert.equal(action.security_risk, 'LOW');
  });
});
