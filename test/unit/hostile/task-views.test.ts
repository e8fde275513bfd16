// Worktree tasks' conversations as the editor's Conversations view lists them (issue 43), from
// tasks the real CLI ran (real git, the real sandbox, the scripted model), in act and in plan
// mode: listed under the conversation's own id with the task's status; a task text laden with
// terminal escapes stays data; a task whose session file or log is damaged, or whose worktree is
// gone, is left out or said, never an error that hides the other tasks.
import * as assert from 'node:assert/strict';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionInfo } from '../../../src/host/node/cli/session-file';
import { conversationOf, taskPlaceOf } from '../../../src/host/node/worktrees/editor-tasks';
import { printableLine } from '../../../src/core/text/printable';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';
import { createCall, finishCall, makeRepo } from '../cli/worktree-fixtures';

const ESCAPED = 'Fix \u001b]0;owned\u0007the \u001b[2Jlogin\u009b1m test';

describe("worktree tasks' conversations for the Conversations view (issue 43)", function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  const bases: string[] = [];
  afterEach(async () => {
    await fx.cleanup();
    for (const b of bases.splice(0)) rmSync(b, { recursive: true, force: true });
  });

  async function ranTask(name: string, mode: 'act' | 'plan', text = 'Write a greeting') {
    const base = outsideFolder('task-views-');
    bases.push(base);
    const repo = makeRepo(join(base, 'repo'), { 'README.md': '# project\n' });
    const env = {
      ...(await fx.startLlm({
        name,
        turns:
          mode === 'act'
            ? [
                { reply: { toolCalls: [createCall('call_0', 'hello.txt', 'hello\n')] } },
                { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
              ]
            : [{ reply: { toolCalls: [finishCall()] } }],
      })),
      LOGBOOK_WORKTREES_DIR: join(base, 'data'),
    };
    const r = await runCli(['run', '--worktree', name, text, '--confirm', 'never', '--mode', mode], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    const { store } = taskPlaceOf(repo, env);
    return store.get(name);
  }

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: listed under its conversation's id, with the task's status; an escape-laden task text stays data`, async () => {
      const record = await ranTask(`views-${mode}`, mode, ESCAPED);
      const listed = await conversationOf(record);
      assert.ok(listed, "the CLI task's conversation is not listed");
      assert.equal(listed.entry.id, readSessionInfo(record.log)?.id);
      assert.deepEqual([listed.status, listed.waitingForYou], ['finished', true]);
      assert.equal(listed.entry.status, 'finished');
      assert.ok(listed.entry.eventCount > 0);
      // The title is the task's text as recorded; the row shows it through printableLine.
      assert.equal(listed.entry.title, ESCAPED);
      assert.doesNotMatch(printableLine(listed.entry.title), /[\u0000-\u001f\u007f-\u009f]/);
    });
  }

  it('a damaged session file or log leaves the task out; a removed worktree reads as missing', async () => {
    const record = await ranTask('views-damaged', 'act');
    rmSync(record.worktree, { recursive: true, force: true });
    assert.equal((await conversationOf(record))?.status, 'missing');

    writeFileSync(join(record.log, 'session.json'), '{"id": 7, "workspace": ');
    assert.equal(await conversationOf(record), undefined, 'a task with an unreadable session file is listed');

    const other = await ranTask('views-damaged-log', 'act');
    for (const f of readdirSync(other.log)) {
      if (f !== 'session.json') rmSync(join(other.log, f), { recursive: true, force: true });
    }
    writeFileSync(join(other.log, 'segment-00000000.log'), 'not a log at all\n');
    // Listed or not, the listing answers instead of throwing, so the view still shows the others.
    const listed = await conversationOf(other);
    assert.ok(listed === undefined || listed.entry.id === readSessionInfo(other.log)?.id);
  });
});
