// Races a busy machine exposes, through the real CLI: two `logbook run`s that open one workspace's
// checkpoint store at once. The store another opener is still making (`git init` done, its
// attributes not yet written) must not be used as it is: a workspace whose .gitattributes convert
// line ends would have its CRLF files recorded as LF, and a restore would write them back so.
// Plan mode takes no checkpoints (its commands cannot change files): act mode only.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { printed, runCli, testCheckpointsDir } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';
import { startScriptedLlm } from '../../support/llm-server';

const CRLF = 'first\r\nsecond\r\n';

describe('hostile: openers of one checkpoint store at once', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const overwrite = (name: string) => ({
    name,
    turns: [
      { reply: { toolCalls: [terminalCall(`call_${name}`, `printf '${name}\\n' > ${name}.txt`)] } },
      {
        match: { lastRole: 'tool' as const },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
      },
    ],
  });

  it('act: two runs on a store another opener is still making; each restore brings the CRLF file back byte for byte', async () => {
    const ws = fx.tmp();
    writeFileSync(join(ws, '.gitattributes'), '* text eol=lf\n');
    // Each run overwrites a file of its own: its first checkpoint holds that file as it was.
    for (const name of ['one', 'two']) writeFileSync(join(ws, `${name}.txt`), CRLF);
    // What an opener leaves between its `git init` and the rest of the store's making.
    const gitDir = join(storeDirFor(testCheckpointsDir(), ws), 'git');
    mkdirSync(gitDir, { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', gitDir], {
      env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: gitDir },
    });

    const names = ['one', 'two'];
    const convs = names.map((name) => join(fx.tmp(), name));
    // Two scripted models: each run follows its own script from its first request.
    const second = await startScriptedLlm({ scenario: overwrite('two') });
    const envs = [await fx.startLlm(overwrite('one')), { ...fx.env(), OPENAI_BASE_URL: second.baseUrl }];
    const runs = await Promise.all(
      convs.map((conv, i) =>
        runCli(['run', '--workspace', ws, '--task', 'overwrite', '--confirm', 'never', '--store', conv], {
          env: envs[i]!,
        }),
      ),
    ).finally(() => second.close());
    for (const [i, run] of runs.entries()) {
      assert.equal(run.code, 0, printed(run));
      assert.equal(readFileSync(join(ws, `${names[i]!}.txt`), 'utf8'), `${names[i]!}\n`, printed(run));
    }

    for (const [i, conv] of convs.entries()) {
      const file = join(ws, `${names[i]!}.txt`);
      const list = JSON.parse((await runCli(['checkpoints', conv, '--json'])).stdout) as { id: string }[];
      const restored = await runCli(['restore', conv, '--at', list[0]!.id, '--yes']);
      assert.equal(restored.code, 0, printed(restored));
      assert.equal(readFileSync(file, 'utf8'), CRLF, `restored from ${conv}`);
    }
  });
});
