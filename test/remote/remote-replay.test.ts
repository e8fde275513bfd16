// `logbook replay` of a conversation that ran on the real agent-server: it runs Logbook's agent
// again on a copy of the files of the commit the server's HEAD was on at the start (remote.json's
// base_commit), taken from a local clone that has it, compares each tool call's result with the
// one received, and writes nothing in the clone. Without the commit it is refused in words.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, startScriptedLlm } from '../support/llm-server';
import { remoteEditAndCommand } from '../support/remote-replay-scenario';
import { runCli } from '../unit/cli/cli-runner';

/** An edit, then a command that reads the edited file back. */
function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

/** Every file under `dir` (with .git) and its bytes and mode, to see that nothing changed. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, name.name);
      if (name.isDirectory()) walk(p);
      else out.set(relative(dir, p), `${statSync(p).mode} ${readFileSync(p).toString('base64')}`);
    }
  };
  walk(dir);
  return out;
}

/** A copy of the conversation folder `conv` under `name`, its remote.json changed by `edit`. */
function copyOf(
  conv: string,
  name: string,
  edit: (origin: Record<string, unknown>) => Record<string, unknown>,
): string {
  const copy = join(dirname(conv), '..', '..', '..', name, basename(conv));
  mkdirSync(dirname(copy), { recursive: true });
  execFileSync('cp', ['-a', conv, copy]);
  const origin = JSON.parse(readFileSync(join(copy, 'remote.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(copy, 'remote.json'), JSON.stringify(edit(origin)));
  return copy;
}

describe('replay of a remote conversation on its base commit (the real agent-server)', function () {
  this.timeout(180_000);
  let server: AgentServer;
  let llm: ScriptedLlm;
  let root: string;
  let local: string;
  let conv: string;
  let base: string;
  let env: Record<string, string>;

  before(async () => {
    server = await startAgentServer();
    root = testRoot('remote-replay');
    local = join(root, 'local');
    const remoteDir = join(root, 'remote');
    mkdirSync(local);
    git(local, 'init', '-q');
    writeFileSync(join(local, 'a.txt'), 'one\n');
    writeFileSync(join(local, 'b.txt'), 'two\n');
    git(local, 'add', '.');
    git(local, 'commit', '-qm', 'base');
    // The server works in a clone: its HEAD at the start is a commit the local repository has.
    git(root, 'clone', '-q', local, remoteDir);
    base = git(local, 'rev-parse', 'HEAD').trim();
    llm = await startScriptedLlm({ scenario: remoteEditAndCommand(remoteDir, 'remote-replay') });
    env = {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_REMOTE_KEY: server.key,
    };
    const r = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'never', 'edit a.txt'],
      { env, cwd: local },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    assert.equal(readFileSync(join(remoteDir, 'a.txt'), 'utf8'), 'ONE\n');
    const dirs = readdirSync(join(local, '.logbook', 'conversations'));
    conv = join(local, '.logbook', 'conversations', dirs[0]!);
    assert.equal(
      (JSON.parse(readFileSync(join(conv, 'remote.json'), 'utf8')) as { base_commit?: string }).base_commit,
      base,
    );
  });
  after(async () => {
    await llm?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('runs on the base commit in a copy, compares every call, and writes nothing in the clone', async () => {
    // The clone has moved on since: the replay still starts from the base commit's files.
    writeFileSync(join(local, 'b.txt'), 'two, edited here\n');
    git(local, 'commit', '-qam', 'later');
    const before = snapshot(local);
    const status = git(local, 'status', '--porcelain');
    const r = await runCli(['replay', conv], { env, cwd: local, timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`the files of commit ${base.slice(0, 12)}, the server's HEAD at the start`),
    );
    assert.match(r.stdout, /replayed 3 actions, no divergence/);
    assert.deepEqual(snapshot(local), before);
    assert.equal(git(local, 'status', '--porcelain'), status);
  });

  it('a result that differs is a divergence, as for a local conversation', async () => {
    // A clone whose base commit has another a.txt: the server's edit does not apply there.
    const other = join(root, 'other');
    git(root, 'clone', '-q', local, other);
    writeFileSync(join(other, 'a.txt'), 'uno\n');
    git(other, 'commit', '-qam', 'other');
    const head = git(other, 'rev-parse', 'HEAD').trim();
    const copy = copyOf(conv, 'diverge', (o) => ({ ...o, base_commit: head }));
    const r = await runCli(['replay', copy, '--workspace', other], { env, cwd: root, timeoutMs: 120_000 });
    assert.equal(r.code, 4, r.stdout + r.stderr);
    assert.match(r.stdout, /divergence at event \d+ \(action 1 of 3\): file_editor: str_replace /);
    assert.match(r.stdout, /recorded: succeeded\n {2}replayed: failed/);
  });

  it('refused in words when the clone lacks the commit, or remote.json records none', async () => {
    const fresh = join(root, 'fresh');
    mkdirSync(fresh);
    git(fresh, 'init', '-q');
    writeFileSync(join(fresh, 'a.txt'), 'one\n');
    git(fresh, 'add', '.');
    git(fresh, 'commit', '-qm', 'unrelated');
    const missing = await runCli(['replay', conv, '--workspace', fresh], { env, cwd: root });
    assert.equal(missing.code, 1, missing.stdout + missing.stderr);
    assert.match(missing.stderr, new RegExp(`does not have commit ${base}, the server's HEAD when`));
    assert.match(missing.stderr, /git fetch REMOTE BRANCH/);

    const none = copyOf(conv, 'none', ({ base_commit: _gone, ...o }) => o);
    const r = await runCli(['replay', none], { env, cwd: local });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /records no base_commit/);
  });
});
