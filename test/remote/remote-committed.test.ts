// Work the agent commits on the server is part of its change: the run records the commit HEAD
// was on when the conversation started (remote.json's base_commit), and `logbook diff` and
// `logbook apply` take the change against it, not against HEAD now (the real agent-server).
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { runCli } from '../unit/cli/cli-runner';
import { git, remoteEnv, repoWithFiles, runRemote } from './remote-run';

/** One command: a change to a.txt and a new file committed there, then a file left uncommitted. */
const COMMIT_THEN_LOOSE: Scenario = {
  name: 'remote-commit',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: 'call_commit',
            name: 'terminal',
            arguments: {
              command:
                'echo changed > a.txt && echo committed > c.txt && git add a.txt c.txt && ' +
                'git -c user.name=A -c user.email=a@a commit -qm agent && echo loose > loose.txt',
              security_risk: 'LOW',
              summary: 'commit, then one more file',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Committed.' } }] },
    },
  ],
};

/** A tracked script made executable, and a new executable script. */
const MODES: Scenario = {
  name: 'remote-modes',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: 'call_modes',
            name: 'terminal',
            arguments: {
              command:
                "chmod +x run.sh && printf '#!/bin/sh\\necho new\\n' > new.sh && chmod +x new.sh && chmod -x tool.sh",
              security_risk: 'LOW',
              summary: 'modes',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Modes set.' } }] },
    },
  ],
};

const executable = (file: string) => (statSync(file).mode & 0o111) !== 0;

const gitRepo = (dir: string): void => repoWithFiles(dir, { 'a.txt': 'base\n' });

describe("the server's committed work in diff and apply (the real agent-server)", function () {
  this.timeout(180_000);
  let server: AgentServer | undefined;
  let llm: ScriptedLlm | undefined;
  let root: string;

  before(async () => {
    server = await startAgentServer();
  });
  after(async () => {
    await llm?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('records the start commit, and diff and apply hold what the agent committed and what it did not', async () => {
    root = testRoot('remote-committed');
    const remoteDir = join(root, 'remote');
    const local = join(root, 'local');
    gitRepo(remoteDir);
    gitRepo(local);
    const start = git(remoteDir, 'rev-parse', 'HEAD').trim();
    llm = await startScriptedLlm({ scenario: COMMIT_THEN_LOOSE });
    const env = remoteEnv(llm, server!);
    const dir = await runRemote(server!, env, remoteDir, local, 'commit');
    assert.notEqual(git(remoteDir, 'rev-parse', 'HEAD').trim(), start, 'the agent did not commit');
    const origin = JSON.parse(readFileSync(join(dir, 'remote.json'), 'utf8')) as { base_commit?: string };
    assert.equal(origin.base_commit, start);

    const diff = await runCli(['diff', dir], { env, cwd: local });
    assert.equal(diff.code, 0, diff.stdout + diff.stderr);
    assert.match(diff.stdout, new RegExp(`against commit ${start.slice(0, 12)} there`));
    assert.match(diff.stdout, /3 files changed/);
    assert.match(diff.stdout, /^-base$/m);
    assert.match(diff.stdout, /^\+changed$/m);
    assert.match(diff.stdout, /\+\+\+ b\/c\.txt/);
    assert.match(diff.stdout, /\+\+\+ b\/loose\.txt/);

    const apply = await runCli(['apply', dir], { env, cwd: local });
    assert.equal(apply.code, 0, apply.stdout + apply.stderr);
    assert.equal(readFileSync(join(local, 'a.txt'), 'utf8'), 'changed\n');
    assert.equal(readFileSync(join(local, 'c.txt'), 'utf8'), 'committed\n');
    assert.equal(readFileSync(join(local, 'loose.txt'), 'utf8'), 'loose\n');
  });

  it('apply gives the files the executable bit they have on the server (set, and taken away)', async () => {
    root = testRoot('remote-modes');
    const remoteDir = join(root, 'remote');
    const local = join(root, 'local');
    for (const d of [remoteDir, local]) {
      gitRepo(d);
      writeFileSync(join(d, 'run.sh'), '#!/bin/sh\necho run\n');
      writeFileSync(join(d, 'tool.sh'), '#!/bin/sh\necho tool\n');
      chmodSync(join(d, 'tool.sh'), 0o755);
      git(d, 'add', '.');
      git(d, 'commit', '-qm', 'scripts');
    }
    await llm?.close();
    llm = await startScriptedLlm({ scenario: MODES });
    const env = remoteEnv(llm, server!);
    const dir = await runRemote(server!, env, remoteDir, local, 'modes');
    assert.ok(executable(join(remoteDir, 'run.sh')) && !executable(join(remoteDir, 'tool.sh')));
    const apply = await runCli(['apply', dir], { env, cwd: local });
    assert.equal(apply.code, 0, apply.stdout + apply.stderr);
    assert.doesNotMatch(apply.stderr, /gave no git patch/);
    assert.equal(readFileSync(join(local, 'new.sh'), 'utf8'), '#!/bin/sh\necho new\n');
    assert.ok(executable(join(local, 'new.sh')), 'new.sh is not executable here');
    assert.ok(executable(join(local, 'run.sh')), 'run.sh is not executable here');
    assert.ok(!executable(join(local, 'tool.sh')), 'tool.sh is still executable here');
    // git sees the mode changes as the change here.
    assert.match(git(local, 'diff', '--summary'), /mode change 100644 => 100755 run\.sh/);
  });
});
