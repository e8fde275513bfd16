// `logbook diff` and `logbook apply` on a conversation that ran on the real agent-server: the
// server's change (its git against HEAD in the working folder), shown, and brought into a local
// working tree only when asked, by a worktree task's rules. Run with `npm run test:remote`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { runCli } from '../unit/cli/cli-runner';
import { remoteEnv, repoWithFiles, runRemote } from './remote-run';

const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

/** An edit of a.txt's first line, a new file written by a command, then the finish. */
function editScenario(remoteDir: string): Scenario {
  return {
    name: 'remote-edit',
    turns: [
      {
        match: { hasTools: true, lastRole: 'user' },
        reply: {
          toolCalls: [
            {
              id: 'call_edit',
              name: 'file_editor',
              arguments: {
                command: 'str_replace',
                path: join(remoteDir, 'a.txt'),
                old_str: 'one\n',
                new_str: 'ONE from the server\n',
                security_risk: 'LOW',
              },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: {
          toolCalls: [
            {
              id: 'call_new',
              name: 'terminal',
              arguments: { command: 'echo added > new.txt', security_risk: 'LOW', summary: 'add new.txt' },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Edited.' } }] },
      },
    ],
  };
}

const gitRepo = (dir: string): void => repoWithFiles(dir, { 'a.txt': BASE, 'gone.txt': 'to be removed\n' });

function status(dir: string): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: dir,
    encoding: 'utf8',
  });
}

describe('logbook diff and apply of a remote conversation (the real agent-server)', function () {
  this.timeout(180_000);
  let server: AgentServer;
  let llm: ScriptedLlm;
  let root: string;
  let remoteDir: string;
  let convDir: string;
  let env: Record<string, string>;

  before(async () => {
    server = await startAgentServer();
    root = testRoot('remote-review');
    remoteDir = join(root, 'remote');
    gitRepo(remoteDir);
    llm = await startScriptedLlm({ scenario: editScenario(remoteDir) });
    env = remoteEnv(llm, server);
    const runFrom = join(root, 'runner');
    mkdirSync(runFrom);
    convDir = await runRemote(server, env, remoteDir, runFrom, 'edit a.txt');
    // The agent deletes a tracked file outside the scenario: the server reports it DELETED.
    rmSync(join(remoteDir, 'gone.txt'));
  });
  after(async () => {
    await llm?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("logbook diff shows the server's change as a unified diff, --stat as file names", async () => {
    const r = await runCli(['diff', convDir], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /3 files changed/);
    assert.match(r.stdout, /--- a\/a\.txt\n\+\+\+ b\/a\.txt/);
    assert.match(r.stdout, /^-one$/m);
    assert.match(r.stdout, /^\+ONE from the server$/m);
    assert.match(r.stdout, /--- \/dev\/null\n\+\+\+ b\/new\.txt/);
    assert.match(r.stdout, /^\+added$/m);
    assert.match(r.stdout, /--- a\/gone\.txt\n\+\+\+ \/dev\/null/);
    const stat = await runCli(['diff', convDir, '--stat'], { env });
    assert.equal(stat.code, 0, stat.stderr);
    assert.match(stat.stdout, /^ {2}M a\.txt$/m);
    assert.match(stat.stdout, /^ {2}A new\.txt$/m);
    assert.match(stat.stdout, /^ {2}D gone\.txt$/m);
  });

  it('logbook diff of a remote conversation refuses two points and needs the key', async () => {
    const points = await runCli(['diff', convDir, '--from', 'start', '--to', '#2'], { env });
    assert.notEqual(points.code, 0);
    assert.match(points.stderr, /keeps no file checkpoints/);
    const { LOGBOOK_REMOTE_KEY: _, ...noKey } = env;
    const r = await runCli(['diff', convDir], { env: noKey });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /set LOGBOOK_REMOTE_KEY/);
  });

  it('logbook apply brings the change into a clean working tree, uncommitted', async () => {
    const local = join(root, 'clean');
    gitRepo(local);
    const r = await runCli(['apply', convDir], { env, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(join(local, 'a.txt'), 'utf8'), readFileSync(join(remoteDir, 'a.txt'), 'utf8'));
    assert.equal(readFileSync(join(local, 'new.txt'), 'utf8'), 'added\n');
    assert.equal(existsSync(join(local, 'gone.txt')), false);
    assert.match(r.stdout, /3 file\(s\); nothing was committed/);
    assert.deepEqual(status(local).split('\n').filter(Boolean).sort(), [
      ' D gone.txt',
      ' M a.txt',
      '?? new.txt',
    ]);
  });

  it('logbook apply refuses over uncommitted changes; --force merges, and a conflict is left marked and named', async () => {
    const local = join(root, 'dirty');
    gitRepo(local);
    // The same first line changed here, and gone.txt changed here too.
    writeFileSync(join(local, 'a.txt'), BASE.replace('one\n', 'ONE from here\n'));
    writeFileSync(join(local, 'gone.txt'), 'kept here\n');
    const refused = await runCli(['apply', convDir], { env, cwd: local });
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /uncommitted changes \(2 file\(s\)\).*--force/);
    assert.equal(existsSync(join(local, 'new.txt')), false, 'written despite the refusal');

    const r = await runCli(['apply', convDir, '--force'], { env, cwd: local });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const a = readFileSync(join(local, 'a.txt'), 'utf8');
    assert.match(
      a,
      /^<<<<<<< a\.txt \(here\)\nONE from here\n=======\nONE from the server\n>>>>>>> a\.txt \(server\)\n/,
    );
    assert.match(r.stderr, /a\.txt: changed here and on the server; conflict markers/);
    assert.match(r.stderr, /gone\.txt: deleted on the server, changed here; left as it is/);
    assert.match(r.stderr, /Nothing was resolved for you/);
    assert.equal(readFileSync(join(local, 'gone.txt'), 'utf8'), 'kept here\n');
    assert.equal(readFileSync(join(local, 'new.txt'), 'utf8'), 'added\n');
  });

  it("--force merges a change here that does not touch the server's lines", async () => {
    const local = join(root, 'merge');
    gitRepo(local);
    writeFileSync(join(local, 'a.txt'), BASE.replace('seven\n', 'seven here\n'));
    const r = await runCli(['apply', convDir, '--force'], { env, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(
      readFileSync(join(local, 'a.txt'), 'utf8'),
      BASE.replace('one\n', 'ONE from the server\n').replace('seven\n', 'seven here\n'),
    );
    assert.match(r.stdout, /1 merged with changes here/);
  });
});
