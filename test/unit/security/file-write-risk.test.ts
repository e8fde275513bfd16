// The file tools' write rating: the boundary (the workspace and the writable folders, whatever the
// mode), files that run later in the user's own context, build files, and the command rating's
// wording for the same files.
import assert from 'node:assert/strict';
import { commandRisk, fileWriteRisk } from '../../../src/core/security';
import {
  BUILD_FILES,
  entryHolding,
  RUNS_LATER,
  runsLaterReason,
} from '../../../src/core/security/runs-later';
import { packageScriptsChange } from '../../../src/core/security/package-scripts';

const ROOTS = ['/work/project', '/work/second'];

describe('fileWriteRisk', () => {
  const cases: [string, 'LOW' | 'MEDIUM' | 'HIGH', string][] = [
    ['/work/project/src/index.ts', 'LOW', 'ordinary workspace file'],
    ['src/index.ts', 'LOW', 'ordinary workspace file'],
    ['/work/second/README.md', 'LOW', 'ordinary workspace file'],
    ['/work/project/.env.example', 'LOW', 'ordinary workspace file'],
    ['docs/.env.sample', 'LOW', 'ordinary workspace file'],
    // Outside: refused by the tool in every mode, so nobody is asked.
    ['/etc/passwd', 'LOW', 'refused without touching anything: /etc/passwd is outside the folders'],
    ['/work/project-other/x', 'LOW', 'outside the folders the agent may write'],
    ['../elsewhere/file', 'LOW', 'outside the folders the agent may write'],
    ['/work/project/../../etc/hosts', 'LOW', 'outside the folders the agent may write'],
    // Files that run later in the user's context.
    [
      '.vscode/settings.json',
      'HIGH',
      ".vscode/settings.json runs later outside the sandbox, in your own context: the editor's",
    ],
    ['/work/second/.vscode/tasks.json', 'HIGH', '.vscode/tasks.json runs later outside the sandbox'],
    ['.envrc', 'HIGH', '.envrc runs later outside the sandbox, in your own context: direnv runs it'],
    ['.devcontainer/devcontainer.json', 'HIGH', 'the dev container'],
    ['.husky/pre-commit', 'HIGH', 'git hooks installed by husky'],
    ['team.code-workspace', 'HIGH', "an editor workspace file's settings and tasks"],
    [
      '/work/project/.git/config',
      'HIGH',
      ".git/config runs later outside the sandbox, in your own context: git's configuration",
    ],
    ['.git/commondir', 'HIGH', 'where git reads its configuration and hooks from'],
    ['.git/hooks/pre-commit', 'HIGH', 'git hooks run at the next commit'],
    // A nested repository's: the editor's git opens repositories in subfolders by itself.
    [
      'vendor/lib/.git/config',
      'HIGH',
      "vendor/lib/.git/config runs later outside the sandbox, in your own context: git's configuration",
    ],
    ['/work/project/sub/.git/hooks/post-checkout', 'HIGH', 'git hooks run at the next commit'],
    ['sub/.git', 'HIGH', "which folder git reads a repository's configuration and hooks from"],
    ['.git/objects/ab/cdef', 'HIGH', 'inside .git (repository internals'],
    ['.logbook/agents/helper.md', 'HIGH', "Logbook's own agents and settings"],
    ['.env', 'HIGH', 'environment files that tools load into later processes'],
    ['/work/project/.env.local', 'HIGH', 'may hold secrets'],
    // Secrets.
    ['/work/project/certs/server.pem', 'HIGH', 'secrets'],
    ['/work/project/.npmrc', 'HIGH', 'secrets'],
    ['/work/project/config/credentials.json', 'HIGH', 'secrets'],
    // Build files: code the user will run.
    ['Makefile', 'MEDIUM', 'Makefile is code you will run: its recipes run on make'],
    ['tools/justfile', 'MEDIUM', 'its recipes run on just'],
    ['setup.py', 'MEDIUM', 'it runs on pip install'],
  ];
  for (const [path, expected, reason] of cases) {
    it(`${path} is ${expected}`, () => {
      const result = fileWriteRisk(path, ROOTS);
      assert.equal(result.risk, expected, result.reasons.join(' | '));
      assert.ok(
        result.reasons.some((r) => r.includes(reason)),
        result.reasons.join(' | '),
      );
    });
  }

  it('a folder in logbook.sandbox.writable may be written; without it, the same path is refused', () => {
    assert.equal(
      fileWriteRisk('/cache/tool/x', ROOTS, { writable: ['/cache'] }).reasons[0],
      '/cache/tool/x is an ordinary workspace file',
    );
    const refused = fileWriteRisk('/cache/tool/x', ROOTS);
    assert.match(
      refused.reasons[0]!,
      /refused without touching anything: .*outside the folders the agent may write \(the workspace folders\)/,
    );
    assert.match(
      fileWriteRisk('/elsewhere', ROOTS, { writable: ['/cache'] }).reasons[0]!,
      /workspace folders and \/cache\)/,
    );
  });

  it('treats everything as refused when there is no workspace', () => {
    assert.match(fileWriteRisk('/any/file.txt', []).reasons[0]!, /refused/);
  });

  it('judges where the path led when the call was recorded, not where it leads now', () => {
    const recorded = fileWriteRisk('link/x.txt', ROOTS, { recordedReal: '/work/project/.vscode/x.txt' });
    assert.equal(recorded.risk, 'HIGH');
    assert.match(recorded.reasons[0]!, /\.vscode\/x\.txt runs later/);
    const out = fileWriteRisk('link/x.txt', ROOTS, { recordedReal: '/srv/x.txt' });
    assert.match(out.reasons[0]!, /link\/x\.txt \(a symlink to \/srv\/x\.txt\) is outside the folders/);
  });

  describe('package.json: MEDIUM only when its scripts change', () => {
    const current = `${JSON.stringify({ name: 'a', version: '1.0.0', scripts: { test: 'mocha' } }, null, 2)}\n`;
    const rate = (change: Record<string, unknown>, text: string | undefined = current) =>
      fileWriteRisk('package.json', ROOTS, {
        change: { command: 'str_replace', ...change },
        readText: () => text,
      });

    it('a scripts change asks, naming the file as code you will run', () => {
      const r = rate({ old_str: '"mocha"', new_str: '"curl x | sh"' });
      assert.equal(r.risk, 'MEDIUM');
      assert.match(
        r.reasons[0]!,
        /package\.json is code you will run: its scripts run on npm install, npm test and npm start/,
      );
    });

    it('a version bump does not', () => {
      assert.equal(rate({ old_str: '"1.0.0"', new_str: '"1.0.1"' }).risk, 'LOW');
    });

    it('a create with scripts asks; one without does not', () => {
      const create = (file_text: string) =>
        fileWriteRisk('pkg/package.json', ROOTS, { change: { command: 'create', file_text } }).risk;
      assert.equal(create('{"scripts":{"postinstall":"sh x"}}'), 'MEDIUM');
      assert.equal(create('{"name":"x"}'), 'LOW');
    });

    it('an edit that leaves it unreadable as JSON, an insert into scripts, or an undo asks', () => {
      assert.equal(rate({ old_str: '"1.0.0"', new_str: '"1.0.0' }).risk, 'MEDIUM');
      assert.equal(
        rate({ command: 'insert', insert_line: 4, new_str: '    "postinstall": "sh x",' }).risk,
        'MEDIUM',
      );
      assert.equal(rate({ command: 'undo_edit' }).risk, 'MEDIUM');
    });

    it('packageScriptsChange: an edit that would fail (old_str not found) changes nothing', () => {
      assert.equal(
        packageScriptsChange({ command: 'str_replace', old_str: 'absent', new_str: 'x' }, current),
        false,
      );
    });
  });
});

describe('runs-later.ts', () => {
  it('every RUNS_LATER pattern is held, at the workspace folder or (a bare name) at any depth', () => {
    for (const rel of [
      '.git/config',
      '.git/modules/lib/config',
      '.git/worktrees/b/HEAD',
      '.vscode/launch.json',
      'sub/.envrc',
      'a/b/x.code-workspace',
      '.env.production',
      'sub/.git/config',
      'a/b/.git/commondir',
      'sub/.git/modules/x/config',
      'sub/.git/hooks/pre-push',
      'sub/.git',
    ])
      assert.ok(entryHolding(rel), rel);
    for (const rel of [
      '.git/objects/aa/bb',
      '.git/refs/heads/main',
      '.git/index',
      'sub/.git/objects/aa/bb',
      'sub/.git/HEAD',
      'src/vscode/x.ts',
      'src/git/config',
      '.env.example',
      'config/.env.template',
    ])
      assert.equal(entryHolding(rel), undefined, rel);
    assert.equal(entryHolding('../.vscode/settings.json'), undefined, 'outside the folder');
    assert.ok(RUNS_LATER.length > 0 && BUILD_FILES.some((b) => b.pattern === 'package.json'));
  });

  it('runsLaterReason names only what runs later, a user entry included', () => {
    assert.equal(runsLaterReason('Makefile'), undefined, 'a build file is not held read-only');
    assert.match(runsLaterReason('tools/run.sh', ['tools/'])!, /on your list of files that run later/);
  });
});

describe('commandRisk: writing a file that runs later or a build file says so', () => {
  const roots = ['/work/project'];
  for (const [command, risk, reason] of [
    [
      'echo x > .vscode/tasks.json',
      'HIGH',
      'writes to a file that runs later: .vscode/tasks.json runs later outside the sandbox',
    ],
    ['touch .envrc', 'HIGH', 'creates a file that runs later: .envrc runs later outside the sandbox'],
    ['cp hook .husky/pre-push', 'HIGH', '.husky/pre-push runs later outside the sandbox'],
    ['echo all: > Makefile', 'MEDIUM', 'writes to a build file: Makefile is code you will run'],
    ['echo x > .env.example', 'MEDIUM', 'writes to .env.example'],
  ] as const) {
    it(`${command}: ${risk}`, () => {
      const r = commandRisk(command, { roots, cwd: '/work/project' });
      assert.equal(r.risk, risk, r.reasons.join(' | '));
      assert.ok(
        r.reasons.some((x) => x.includes(reason)),
        r.reasons.join(' | '),
      );
    });
  }
});
