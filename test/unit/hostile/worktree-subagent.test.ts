// A delegated agent whose definition says `isolation: worktree` (issue 43) works in a git worktree of
// its own, on a branch `logbook/<parent>-<agent>-<child>`: what it writes and commits stays out of
// the parent's working tree, and its parent reads where its work is. In plan mode it makes no
// worktree and writes nothing; in a folder that is no repository it does not run. Through
// `logbook run` with the scripted model and the real bubblewrap; the repository lies outside /tmp.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { delegateCall, finish } from '../agents/agents-fixture';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';

const WRITER =
  '---\nname: writer\ndescription: Writes notes.\ntools: [file_editor, terminal]\nisolation: worktree\n---\nWrite them.\n';

function git(home: string, cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'], HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

describe('hostile: a delegated agent with isolation: worktree works on its own branch (issue 43)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  let base: string;
  let home: string;
  let main: string;
  beforeEach(() => {
    base = outsideFolder('worktree-agent-');
    home = join(base, 'home');
    main = join(base, 'main');
    mkdirSync(home);
    mkdirSync(join(main, '.logbook', 'agents'), { recursive: true });
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = T\n\temail = t@example.com\n');
    writeFileSync(join(main, '.logbook', 'agents', 'writer.md'), WRITER);
  });
  afterEach(async () => {
    await fx.cleanup();
    rmSync(base, { recursive: true, force: true });
  });

  function repo(): void {
    git(home, main, 'init', '-q', '-b', 'main');
    appendFileSync(join(main, '.git', 'info', 'exclude'), '.logbook/\n');
    writeFileSync(join(main, 'a.txt'), 'one\n');
    git(home, main, 'add', 'a.txt');
    git(home, main, 'commit', '-qm', 'first');
  }

  async function delegateWrite(mode: 'act' | 'plan'): Promise<{ told: string; out: string }> {
    const env = await fx.startLlm({
      name: 'worktree-agent',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'get notes' },
          reply: { toolCalls: [delegateCall('c_d', 'write notes.txt and commit it', 'writer')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'write notes.txt' },
          reply: {
            toolCalls: [
              {
                id: 'c_w',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: 'notes.txt',
                  file_text: 'the notes\n',
                  security_risk: 'LOW',
                  summary: 'notes',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool' },
          reply: {
            toolCalls: [
              terminalCall(
                'c_c',
                'git add notes.txt && git -c user.name=W -c user.email=w@example.com commit -qm notes; echo x > draft.txt; git log --oneline -1',
              ),
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: finish('c_f', 'notes written') },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
    });
    const r = await runCli(
      ['run', '--workspace', main, '--mode', mode, '--confirm', 'never', '--task', 'get notes'],
      { env: { ...env, HOME: home } },
    );
    assert.equal(r.code, 0, printed(r));
    const bodies = fx.llm!.completionBodies();
    return { told: JSON.stringify(bodies.at(-1)), out: printed(r) };
  }

  it('act mode: its file and commit land on its own branch in its own worktree; the main tree is untouched', async () => {
    repo();
    const head = git(home, main, 'rev-parse', 'HEAD');
    const { told, out } = await delegateWrite('act');
    assert.ok(!existsSync(join(main, 'notes.txt')), `written in the main tree\n${out}`);
    assert.ok(!existsSync(join(main, 'draft.txt')), `written in the main tree\n${out}`);
    assert.equal(git(home, main, 'rev-parse', 'HEAD'), head);
    assert.equal(git(home, main, 'status', '--porcelain'), '');
    const branches = git(home, main, 'branch', '--list', 'logbook/*', '--format=%(refname:short)').split(
      '\n',
    );
    assert.equal(branches.length, 1, branches.join(', '));
    const branch = branches[0]!;
    assert.match(branch, /^logbook\/[a-z0-9]{8}-writer-[a-z0-9]{8}$/);
    assert.equal(git(home, main, 'show', `${branch}:notes.txt`), 'the notes');
    assert.equal(git(home, main, 'log', '-1', '--format=%s', branch), 'notes');
    // Where worktree tasks live, outside the user's working tree: the one other worktree git lists.
    const dir = git(home, main, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((l) => l.startsWith('worktree '))
      .map((l) => l.slice('worktree '.length))[1]!;
    assert.ok(dir.includes(`${join('.agents', branch.slice('logbook/'.length))}`), dir);
    assert.ok(!dir.startsWith(`${base}/main`), `not in the user's working tree: ${dir}`);
    assert.equal(readFileSync(join(dir, 'draft.txt'), 'utf8'), 'x\n');
    // The parent reads where the work is: its branch, its commit, what is left uncommitted.
    assert.match(told, new RegExp(`on the branch ${branch}`));
    assert.match(told, /Commits on [^:]+: 1/);
    assert.match(told, /Not committed: 1 file/);
    assert.match(told, /draft\.txt/);
  });

  it('plan mode: no worktree is made and nothing is written', async () => {
    repo();
    const { out } = await delegateWrite('plan');
    assert.equal(git(home, main, 'branch', '--list', 'logbook/*'), '', out);
    assert.equal(git(home, main, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1, out);
    assert.ok(!existsSync(join(main, 'notes.txt')), out);
    assert.equal(git(home, main, 'status', '--porcelain'), '');
  });

  it('act mode, in a folder that is no git repository: the agent does not run in its parent’s folder', async () => {
    const env = await fx.startLlm({
      name: 'worktree-agent-no-repo',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'get notes' },
          reply: { toolCalls: [delegateCall('c_d', 'write notes.txt', 'writer')] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'It could not run.' } },
      ],
    });
    // (the test folder lies inside this project's own repository: git must not look above it)
    const r = await runCli(
      ['run', '--workspace', main, '--mode', 'act', '--confirm', 'never', '--task', 'get notes'],
      { env: { ...env, HOME: home, GIT_CEILING_DIRECTORIES: base } },
    );
    assert.ok(!existsSync(join(main, 'notes.txt')), printed(r));
    assert.ok(!existsSync(join(home, '.local', 'share', 'logbook', 'worktrees')), printed(r));
    assert.match(
      JSON.stringify(fx.llm!.completionBodies().at(-1)),
      /not in a git repository with a commit/,
      printed(r),
    );
  });
});
