// Terminal reads outside the workspace: where no sandbox runs they ask (MEDIUM) and name the path;
// inside the sandbox, which hides the secret locations, they are contained and say so; plan mode
// counts them as reads. Words that are patterns, filters or option values are not reads.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planModeRefusal } from '../../../src/core/agent/plan-mode';
import {
  analyzeAction,
  commandReadOnly,
  commandRisk,
  needsConfirmation,
  type CommandRiskOptions,
} from '../../../src/core/security';
import { defaultTools } from '../../../src/core/tools';

const roots = ['/work/ws'];
const rate = (command: string, more: Partial<CommandRiskOptions> = {}) =>
  commandRisk(command, { roots, cwd: roots[0]!, ...more });

describe('terminal reads outside the workspace', () => {
  const OUTSIDE: [string, string][] = [
    ['cat /etc/passwd', 'reads /etc/passwd, outside the workspace'],
    ['cat ../x', 'reads /work/x, outside the workspace'],
    ['find /', 'find lists /, outside the workspace'],
    ['git -C / status', 'git reads the repository at /, outside the workspace'],
    ['ls /usr/lib', 'lists /usr/lib, outside the workspace'],
    ['grep -rn root /etc', 'searches /etc, outside the workspace'],
    ['head -n 3 /var/log/syslog', 'reads /var/log/syslog'],
    ['cat < /etc/hosts', 'reads /etc/hosts'],
    ['sed -n 1,5p /etc/hosts', 'reads /etc/hosts'],
    ["awk -F: '{print $1}' /etc/group", 'reads /etc/group'],
    ['jq .name ../other/package.json', 'reads /work/other/package.json'],
    ['diff src/a.ts /opt/a.ts', 'reads /opt/a.ts'],
    ['cd / && ls', "ls lists /, the shell's folder"],
    ['cd .. && git status', "git reads the repository at /work, the shell's folder"],
    ['find . -name x -exec cat /etc/hosts \\;', 'reads /etc/hosts'],
    ['timeout 5 cat /srv/x', 'reads /srv/x'],
    ['rg --files /usr/share', 'searches /usr/share'],
  ];
  for (const [command, reason] of OUTSIDE) {
    it(`${command}: MEDIUM without a sandbox, naming the path; contained inside one`, () => {
      const bare = rate(command);
      assert.equal(bare.risk, 'MEDIUM', JSON.stringify(bare));
      assert.ok(
        bare.reasons.some((r) => r.includes(reason)),
        JSON.stringify(bare.reasons),
      );
      const boxed = rate(command, { sandboxed: true });
      assert.equal(boxed.risk, 'LOW', JSON.stringify(boxed));
      assert.ok(
        boxed.reasons.some(
          (r) => r.includes(reason) && /readable in the sandbox, which hides the secret locations/.test(r),
        ),
        JSON.stringify(boxed.reasons),
      );
    });
  }

  const NOT_READS = [
    'echo /etc/passwd',
    'grep -rn /api/v1 src',
    'grep -e /usr src/a.ts',
    'cut -d / -f 2 paths.txt',
    "awk -F / '{print $2}' paths.txt",
    "sed -n 's/\\/usr/x/p' a.txt",
    'jq .a package.json',
    'which node',
    'realpath /etc',
    'ls',
    'find . -name "*.ts"',
    'git status',
    'cat /dev/null',
    'cat -',
    'cat $FILE',
  ];
  for (const command of NOT_READS) {
    it(`${command}: reads nothing outside, LOW`, () => {
      assert.equal(rate(command).risk, 'LOW', JSON.stringify(rate(command)));
    });
  }

  it('the shell’s folder counts: after an earlier cd to /etc, `cat hosts` and `ls` read outside', () => {
    assert.equal(rate('cat hosts', { cwd: '/etc' }).risk, 'MEDIUM');
    assert.match(rate('ls -la', { cwd: '/etc' }).reasons.join(), /ls lists \/etc, the shell's folder/);
    assert.equal(rate('ls -la', { cwd: '/work/ws/src' }).risk, 'LOW');
  });

  it('folders the agent may read (its scratch folder) are not outside', () => {
    assert.equal(rate('cat /scratch/out-1.txt', { readable: ['/scratch'] }).risk, 'LOW');
    const analysis = analyzeAction(
      'terminal',
      { command: 'tail -n 50 /scratch/out-1.txt', security_risk: 'LOW' },
      roots,
      {
        readableRoots: ['/scratch'],
        gitConfigRunsPrograms: () => undefined,
      },
    );
    assert.equal(analysis.risk, 'LOW', JSON.stringify(analysis));
  });

  it('a symlink in the workspace that leads outside is read outside, and the reason says where it leads', () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'outside-reads-')));
    try {
      const ws = join(base, 'ws');
      const elsewhere = join(base, 'elsewhere');
      mkdirSync(ws);
      mkdirSync(elsewhere);
      writeFileSync(join(elsewhere, 'notes.txt'), 'x');
      symlinkSync(elsewhere, join(ws, 'link'));
      const r = commandRisk('cat link/notes.txt', { roots: [ws], cwd: ws });
      assert.equal(r.risk, 'MEDIUM');
      assert.match(
        r.reasons.join(),
        new RegExp(`link/notes.txt \\(which leads to ${join(elsewhere, 'notes.txt')}\\)`),
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('a secret or private file keeps its own reason (not a second "outside" one)', () => {
    const shadow = rate('cat /etc/shadow');
    assert.deepEqual(shadow.reasons, ['reads /etc/shadow, private data of the machine or its processes']);
    assert.equal(rate('cat ~/.ssh/id_rsa', { sandboxed: true }).risk, 'HIGH');
  });

  it('the default risky mode asks without a sandbox and not inside one; plan mode lets the read run', () => {
    const args = { command: 'cat /etc/passwd', security_risk: 'LOW' };
    const decide = (commandsSandboxed?: boolean) => {
      const analysis = analyzeAction('terminal', args, roots, {
        shellCwd: roots[0]!,
        gitConfigRunsPrograms: () => undefined,
        ...(commandsSandboxed ? { commandsSandboxed } : {}),
      });
      return needsConfirmation(
        { mode: 'risky', roots, ...(commandsSandboxed === undefined ? {} : { commandsSandboxed }) },
        [{ toolName: 'terminal', readOnly: false, args, analysis }],
      )[0]!;
    };
    assert.deepEqual([decide().confirm, decide().risk], [true, 'MEDIUM']);
    assert.match(decide().reason, /reads \/etc\/passwd, outside the workspace/);
    assert.deepEqual([decide(true).confirm, decide(true).risk], [false, 'LOW']);
    assert.equal(decide(false).confirm, true);

    assert.equal(commandReadOnly('cat /etc/passwd', { roots, cwd: roots[0]! }).readOnly, true);
    const terminal = defaultTools().find((t) => t.name === 'terminal')!;
    assert.equal(planModeRefusal(terminal, { command: 'find / -name x' }, roots), null);
    // Still refused: a private file, and a write.
    assert.ok(planModeRefusal(terminal, { command: 'cat /etc/shadow' }, roots));
    assert.ok(planModeRefusal(terminal, { command: 'cat /etc/passwd > copy' }, roots));
  });
});
