// Terminal commands judge every path where it leads: `..`, `//`, `~` and symlinks resolved before
// any rule, private files outside the workspace at least MEDIUM, writes outside at least MEDIUM.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandRisk, matchAllowRules, type SecurityRisk } from '../../../src/core/security';
import { expandBraces, globRegex } from '../../../src/core/security/shell-paths';

const ROOTS = ['/work/project'];

/** [command, expected risk, a word the reasons must contain (optional)] */
const TABLE: [string, SecurityRisk, string?][] = [
  // The /tmp allowance is judged on the resolved path.
  ['echo x > /tmp/../etc/probe.conf', 'HIGH', '/etc/probe.conf'],
  ['echo x > /tmp//..//etc/probe.conf', 'HIGH', 'system location'],
  ['echo x >> /var/tmp/../../root/.bashrc', 'HIGH'],
  ['tee /tmp/../etc/cron.d/job < x', 'HIGH'],
  ['touch /tmp/../etc/x', 'HIGH'],
  ['cp a /tmp/../etc/', 'HIGH'],
  ['rm -rf /tmp/..', 'HIGH', 'whole file system'],
  ['rm -rf /tmp/../', 'HIGH'],
  ['unlink /tmp/../etc/passwd', 'HIGH'],
  ['find /tmp/.. -delete', 'HIGH'],
  // Writes to absolute paths outside the workspace ask, temporary ones included.
  ['echo x > /tmp/y', 'MEDIUM', 'temporary file outside the workspace'],
  ['ls > /tmp/listing.txt', 'MEDIUM'],
  ['tee /tmp/y', 'MEDIUM'],
  ['cp a /etc/', 'HIGH'],
  ['touch /tmp/marker', 'MEDIUM'],
  ['mkdir -p /tmp/build-out', 'MEDIUM'],
  ['sort -o /tmp/sorted a.txt', 'MEDIUM'],
  ['echo x > /srv/data/file', 'HIGH', 'outside the workspace'],
  ['echo x > /work/project/../other/file', 'HIGH', 'outside the workspace'],
  ['echo x > out.txt', 'MEDIUM'],
  ['touch notes.md', 'LOW'],
  ['ls 2>/dev/null', 'LOW'],
  // Private files outside the workspace: at least MEDIUM to read from the terminal.
  ['cat /etc/shadow', 'MEDIUM', '/etc/shadow'],
  ['cat /etc/shado?', 'MEDIUM', 'can expand to /etc/shadow'],
  ['cat /etc/sh*w', 'MEDIUM'],
  ['cat /e??/[s]hadow', 'MEDIUM'],
  ['cat /etc/{passwd,shadow}', 'MEDIUM'],
  ['grep root /etc/shadow', 'MEDIUM'],
  ['cat /tmp/../etc/shadow', 'MEDIUM'],
  ['head -c 100 /etc//gshadow', 'MEDIUM'],
  ['cat < /etc/shadow', 'MEDIUM'],
  ['dd if=/etc/shadow of=/dev/stdout', 'MEDIUM'],
  ['cat /proc/self/environ', 'MEDIUM', 'environ'],
  // Another process's environment (the agent's parent holds the API key there) is HIGH.
  ['cat /proc/*/environ', 'HIGH', 'another process'],
  ['cat /proc/$$/environ', 'MEDIUM'],
  ['tr "\\0" "\\n" < /proc/1/environ', 'HIGH'],
  ['cat ~/.bash_history', 'MEDIUM', 'history'],
  ['cat $HOME/.zsh_history', 'MEDIUM'],
  ['cat ~/.bash_hist*', 'MEDIUM'],
  ['cat /etc/$(echo shadow)', 'MEDIUM'],
  ['cat /root/.profile', 'MEDIUM'],
  ['cat ~/.ssh/id_rsa', 'HIGH'],
  // Ordinary reads outside the workspace ask, naming the path (outside-reads.test.ts has more).
  ['cat /etc/hostname', 'MEDIUM', 'reads /etc/hostname, outside the workspace'],
  ['cat /usr/include/stdio.h', 'MEDIUM', 'outside the workspace'],
  ['ls /proc/self/', 'MEDIUM', 'outside the workspace'],
  ['ls ~/*', 'MEDIUM', 'outside the workspace'],
  // Inside it they stay LOW.
  ['cat .bash_history', 'LOW'],
  ['cat src/*.ts', 'LOW'],
  ['cat $FILE', 'LOW'],
  ['ls /$(echo x)', 'LOW'],
];

describe('commandRisk: paths judged where they lead', () => {
  for (const [command, expected, word] of TABLE) {
    it(`${JSON.stringify(command)} is ${expected}`, () => {
      const result = commandRisk(command, { roots: ROOTS });
      assert.equal(result.risk, expected, `reasons: ${result.reasons.join(' | ')}`);
      if (word)
        assert.ok(result.reasons.join(' ').includes(word), `"${word}" not in: ${result.reasons.join(' | ')}`);
    });
  }

  describe('after cd: relative words are judged from where the shell moved', () => {
    const CD_TABLE: [string, SecurityRisk, string?][] = [
      ['cd /etc && cat shadow', 'MEDIUM', '/etc/shadow'],
      ['cd /etc; cat gshadow', 'MEDIUM'],
      ['cd /proc/self && cat environ', 'MEDIUM', 'environ'],
      ['cd ~ && cat .bash_history', 'MEDIUM', 'history'],
      ['cd && cat .bash_history', 'MEDIUM'],
      ['pushd /etc && cat shadow', 'MEDIUM'],
      ['cd /etc && echo x > passwd', 'HIGH', '/etc/passwd'],
      ['cd /srv && rm -rf data', 'HIGH', 'outside the workspace'],
      ['cd /tmp && touch x', 'MEDIUM', 'temporary'],
      ['bash -c "cd /etc && cat shadow"', 'MEDIUM'],
      ['cd /etc && bash -c "cat shadow"', 'MEDIUM'],
      ['cd /etc && cat $(echo shadow)', 'MEDIUM'],
      // Decided at run time: a relative word may name any file of that name.
      ['cd "$DIR" && cat shadow', 'MEDIUM', 'can expand to /etc/shadow'],
      ['cd - && cat .bash_history', 'MEDIUM'],
      ['cd /etc && cd - && cat shadow', 'MEDIUM'],
      // A cd in a pipeline runs in a subshell; one into the workspace keeps reads LOW.
      ['cd /etc | cat shadow', 'LOW'],
      ['cd src && cat index.ts', 'LOW'],
      ['cd src && cd .. && cat README.md', 'LOW'],
      ['cd "$DIR" && cat index.ts', 'LOW'],
    ];
    for (const [command, expected, word] of CD_TABLE) {
      it(`${JSON.stringify(command)} is ${expected}`, () => {
        const result = commandRisk(command, { roots: ROOTS });
        assert.equal(result.risk, expected, `reasons: ${result.reasons.join(' | ')}`);
        if (word)
          assert.ok(
            result.reasons.join(' ').includes(word),
            `"${word}" not in: ${result.reasons.join(' | ')}`,
          );
      });
    }
  });

  it('the real /etc/shadow and the home folder history by its absolute path', () => {
    assert.equal(commandRisk(`cat ${homedir()}/.bash_history`, { roots: ROOTS }).risk, 'MEDIUM');
    assert.equal(commandRisk('cat /etc/shadow').risk, 'MEDIUM', 'also without workspace folders');
  });

  it('an allow rule does not let a write through .. into /etc pass', () => {
    assert.equal(
      matchAllowRules('echo x > /tmp/../etc/probe.conf', ['echo'], { roots: ROOTS }).allowed,
      false,
    );
    assert.equal(matchAllowRules('echo x > notes.txt', ['echo'], { roots: ROOTS }).allowed, true);
  });

  describe('with real symlinks', () => {
    let base: string;
    let ws: string;
    beforeEach(() => {
      base = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-shell-paths-')));
      ws = join(base, 'ws');
      mkdirSync(ws);
      mkdirSync(join(base, 'outside'));
      symlinkSync(join(base, 'outside'), join(ws, 'link'));
      symlinkSync('/etc', join(ws, 'etc-link'));
    });
    afterEach(() => rmSync(base, { recursive: true, force: true }));

    it('a write through a symlinked folder lands outside the workspace', () => {
      const r = commandRisk('echo x > link/y', { roots: [ws] });
      assert.equal(r.risk, 'MEDIUM', r.reasons.join(' | ')); // the outside folder is in the temp dir
      assert.match(r.reasons.join(' '), /leads to .*outside\/y.*outside the workspace/);
      assert.equal(commandRisk(`echo x > ${ws}/etc-link/probe.conf`, { roots: [ws] }).risk, 'HIGH');
      assert.equal(commandRisk('cp a etc-link/', { roots: [ws] }).risk, 'HIGH');
      assert.equal(commandRisk('cat etc-link/shadow', { roots: [ws] }).risk, 'MEDIUM');
      assert.equal(commandRisk('echo x > inside.txt', { roots: [ws] }).risk, 'MEDIUM');
      assert.equal(commandRisk('touch inside.txt', { roots: [ws] }).risk, 'LOW');
    });
  });

  it('brace expansion and globs follow bash', () => {
    assert.deepEqual(expandBraces('/etc/{a,b}/{c,d}'), ['/etc/a/c', '/etc/a/d', '/etc/b/c', '/etc/b/d']);
    assert.ok(globRegex('/proc/*/environ').test('/proc/self/environ'));
    assert.ok(!globRegex('/home/*').test('/home/.hidden'), '* does not match a leading dot');
    assert.ok(!globRegex('/etc/*').test('/etc/a/b'), '* stays within one folder');
    assert.ok(globRegex('/etc/[!p]hadow').test('/etc/shadow'));
  });
});
