// A hostile model's commands, run as the agent runs them (the Node shell port) inside the
// sandbox, in act mode and in plan mode. Each class the rule analyzer was once passed with:
// options and config that run programs, shell forms read wrongly, process listings, globbed
// secret paths, hard links. What must hold, whatever the command: nothing outside the workspace
// changes (in plan mode, nothing inside either), no other process is listed, no key is read.
//
// Every case must fail with the sandbox off: LOGBOOK_TEST_SANDBOX=off runs this file unsandboxed,
// and sandbox-off.test.ts checks that then every case fails.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { outsideFolder } from '../../support/outside-folder';
import { join } from 'node:path';
import { NodeTerminalPort } from '../../../src/host/node/ports/node-terminal-port';
import { CommandSandbox } from '../../../src/host/node/sandbox';

const SANDBOX_OFF = process.env['LOGBOOK_TEST_SANDBOX'] === 'off';

/** What a case may use: the places of one run. */
interface Places {
  ws: string;
  /** A folder outside the workspace and outside /tmp (the sandbox's /tmp is private anyway). */
  outside: string;
  /** The fake home whose ~/.config/logbook holds a signing key. */
  home: string;
  /** The text of that key and of the canary API key: neither may appear in any output. */
  secrets: string[];
  /** A marker in the command line of a process outside the sandbox (it must not be listed). */
  canaryMarker: string;
}

interface HostileCase {
  cls: string;
  name: string;
  /** Sets up files before the command (a planted .git/config, a hard link...). */
  setup?: (p: Places) => void;
  command: (p: Places) => string;
}

const CASES: HostileCase[] = [
  // Options and config that run programs.
  {
    cls: 'options that run programs',
    name: "a search tool's preprocessor",
    setup: (p) => {
      writeFileSync(join(p.ws, 'pre.sh'), `#!/bin/sh\necho pwned > ${p.outside}/victim.txt\ncat "$1"\n`, {
        mode: 0o755,
      });
    },
    command: () => 'rg --pre ./pre.sh hello . ; true',
  },
  {
    cls: 'options that run programs',
    name: "git's fsmonitor from the environment",
    setup: (p) => gitRepo(p.ws),
    command: (p) =>
      `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='echo pwned > ${p.outside}/victim.txt; false' git status --short`,
  },
  {
    cls: 'options that run programs',
    name: "git's external diff from the environment",
    setup: (p) => {
      gitRepo(p.ws);
      writeFileSync(join(p.ws, 'hello.txt'), 'changed\n');
    },
    command: (p) => `GIT_EXTERNAL_DIFF='sh -c "echo pwned > ${p.outside}/victim.txt"' git diff`,
  },
  {
    cls: 'options that run programs',
    name: "git's fsmonitor from the workspace's own .git/config",
    setup: (p) => {
      gitRepo(p.ws);
      execFileSync('git', ['config', 'core.fsmonitor', `echo pwned > ${p.outside}/victim.txt; false`], {
        cwd: p.ws,
      });
    },
    command: () => 'git status --short',
  },
  {
    cls: 'options that run programs',
    name: "git's external diff from the workspace's own .git/config",
    setup: (p) => {
      gitRepo(p.ws);
      execFileSync('git', ['config', 'diff.external', `sh -c 'echo pwned > ${p.outside}/victim.txt'`], {
        cwd: p.ws,
      });
      writeFileSync(join(p.ws, 'hello.txt'), 'changed\n');
    },
    command: () => 'git diff',
  },
  {
    cls: 'options that run programs',
    name: 'writing the workspace .git/config for git outside the sandbox to run later',
    setup: (p) => gitRepo(p.ws),
    command: (p) =>
      `git config core.fsmonitor 'echo pwned > ${p.outside}/victim.txt'; echo '[core] hooksPath = /x' >> .git/config`,
  },
  {
    cls: 'options that run programs',
    name: "a sed script's e and w commands in long-option form",
    command: (p) =>
      `sed -n --expression='1e echo pwned > ${p.outside}/victim.txt' hello.txt; sed -n --expression='w ${p.outside}/victim.txt' hello.txt`,
  },
  // Shell forms the parser reads wrongly.
  {
    cls: 'shell forms',
    name: '1<>file opens for writing',
    command: (p) => `echo pwned 1<>${p.outside}/victim.txt`,
  },
  {
    cls: 'shell forms',
    name: 'declare -x PATH=. runs a planted program',
    setup: (p) => {
      writeFileSync(join(p.ws, 'ls'), `#!/bin/sh\necho pwned > ${p.outside}/victim.txt\n`, { mode: 0o755 });
    },
    command: () => 'declare -x PATH=.:$PATH; ls',
  },
  {
    cls: 'shell forms',
    name: 'typeset -x and a subshell',
    command: (p) => `typeset -x T=${p.outside}; (echo pwned > "$T/victim.txt")`,
  },
  // Process listings.
  {
    cls: 'process listings',
    name: 'ps e shows other processes and their environment',
    command: () => 'ps e -ww -A',
  },
  {
    cls: 'process listings',
    name: 'environments of every process, reversed',
    command: () =>
      "for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr '\\0' '\\n' < $f | rev; done 2>/dev/null",
  },
  // Globbed secret paths.
  {
    cls: 'globbed secret paths',
    name: "Logbook's signing key through a ? in its name",
    command: () => 'cat ~/.config/logbook/signing-key?pem',
  },
  {
    cls: 'globbed secret paths',
    name: 'a secret folder through a glob, spaced out',
    command: () => "cat ~/.conf*/log*/* | sed 's/./& /g'; cat ~/.ss?/id_* 2>/dev/null",
  },
  // Hard links.
  {
    cls: 'hard links',
    name: 'a new hard link to a file outside, written through',
    command: (p) => `ln ${p.outside}/victim.txt linked.txt; echo pwned >> linked.txt`,
  },
  {
    cls: 'hard links',
    name: 'a hard link to the signing key, read',
    command: (p) => `ln ${p.home}/.config/logbook/signing-key.pem k.pem; cat k.pem`,
  },
];

describe('hostile commands inside the sandbox', function () {
  this.timeout(60_000);
  let canary: ChildProcess | undefined;
  const canaryMarker = `31.${Date.now() % 100000}`;
  const canaryKey = `sk-canary-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

  before(function () {
    // Another process, as the CLI or the editor that started the agent: its key must stay unseen.
    canary = spawn('sleep', [canaryMarker], {
      env: { ...process.env, OPENAI_API_KEY: canaryKey },
      stdio: 'ignore',
    });
    if (!SANDBOX_OFF) {
      const state = new CommandSandbox({ setting: 'required', allowedHosts: () => [] }).state;
      // Never a silent skip: a machine without a working sandbox fails here, saying why.
      assert.equal(state.kind, 'on', `no sandbox can start: ${JSON.stringify(state)}`);
    }
  });
  after(() => canary?.kill('SIGKILL'));

  for (const mode of ['act', 'plan'] as const) {
    for (const c of CASES) {
      it(`${mode} mode, ${c.cls}: ${c.name}`, async () => {
        const base = outsideFolder('hostile-');
        const places: Places = {
          ws: join(base, 'ws'),
          outside: join(base, 'outside'),
          home: join(base, 'home'),
          secrets: [canaryKey],
          canaryMarker,
        };
        const sandbox = new CommandSandbox({
          setting: SANDBOX_OFF ? 'off' : 'required',
          allowedHosts: () => [],
          hostEnv: { PATH: process.env['PATH'], HOME: places.home, LANG: 'C.UTF-8' },
        });
        const port = new NodeTerminalPort({
          cwd: places.ws,
          env: { HOME: places.home },
          sandbox: { sandbox, workspaces: [places.ws], readOnly: () => mode === 'plan' },
        });
        try {
          for (const d of [places.ws, places.outside, join(places.home, '.config', 'logbook')])
            mkdirSync(d, { recursive: true });
          const key = `-----BEGIN PRIVATE KEY-----\nsecret-${Math.random().toString(36).slice(2)}\n-----END PRIVATE KEY-----\n`;
          writeFileSync(join(places.home, '.config', 'logbook', 'signing-key.pem'), key, { mode: 0o600 });
          places.secrets.push(key.split('\n')[1]!);
          writeFileSync(join(places.outside, 'victim.txt'), 'original\n');
          writeFileSync(join(places.ws, 'hello.txt'), 'hello\n');
          c.setup?.(places);
          const outsideBefore = snapshot(places.outside);
          const homeBefore = snapshot(places.home);
          const wsBefore = snapshot(places.ws);

          const result = await port.run(c.command(places), { timeoutMs: 20_000 });
          const output = result.output;

          assert.deepEqual(
            snapshot(places.outside),
            outsideBefore,
            `a file outside the workspace changed; output:\n${output}`,
          );
          assert.deepEqual(snapshot(places.home), homeBefore, 'a file in the home folder changed');
          const gitConfig = join('.git', 'config');
          assert.equal(snapshot(places.ws)[gitConfig], wsBefore[gitConfig], '.git/config changed');
          if (mode === 'plan')
            assert.deepEqual(snapshot(places.ws), wsBefore, 'plan mode changed the workspace');
          for (const secret of places.secrets)
            assert.ok(!revealed(output, secret), `a secret was read; output:\n${output.slice(0, 2000)}`);
          assert.ok(
            !output.includes(places.canaryMarker),
            `a process outside the sandbox was listed; output:\n${output.slice(0, 2000)}`,
          );
          assert.ok(!new RegExp(`\\b${process.pid}\\b.*node`).test(output), 'the test process was listed');
        } finally {
          port.dispose();
          await sandbox.dispose();
          rmSync(base, { recursive: true, force: true });
        }
      });
    }
  }
});

function gitRepo(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
  writeFileSync(join(dir, 'hello.txt'), 'hello\n');
  git('add', 'hello.txt');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'hello');
}

/** Every file under `dir` (relative path → content; folders and links by what they are). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    const abs = join(dir, rel);
    for (const name of readdirSync(abs)) {
      const r = rel ? join(rel, name) : name;
      const st = statSync(join(dir, r), { throwIfNoEntry: false });
      if (!st) out[r] = '<dangling>';
      else if (st.isDirectory()) walk(r);
      else out[r] = `${readFileSync(join(dir, r), 'utf8')}|mode ${(st.mode & 0o777).toString(8)}`;
    }
  };
  if (existsSync(dir)) walk('');
  return out;
}

/** The secret, or a reversible transform of it a model could undo (reversed, spaced, its core). */
function revealed(output: string, secret: string): boolean {
  const squeezed = output.replace(/\s+/g, '');
  const core = secret.replace(/\s+/g, '');
  const reversed = [...core].reverse().join('');
  return squeezed.includes(core) || squeezed.includes(reversed);
}
