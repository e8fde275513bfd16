// Every terminal call starts clean: a trap, alias, function or shell option one call sets is gone
// in the next, while the working folder and exported variables carry, and the port says which
// exported names did. Run through the port as the CLI builds it: without a sandbox, and in the
// real sandbox in act mode and in plan mode (where the workspace is read-only, so the marks and
// folders go to the sandbox's own /tmp).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeTerminalPort } from '../../../src/host/node/ports/node-terminal-port';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';
import { CommandSandbox, probeSandbox } from '../../../src/host/node/sandbox';

interface Variant {
  name: string;
  /** The port, and a folder its commands can write to. */
  make(ws: string): { port: NodeTerminalPort; scratch: string; dispose(): void };
}

const VARIANTS: Variant[] = [
  {
    name: 'no sandbox',
    make: (ws) => {
      const port = new NodeTerminalPort({ cwd: ws });
      return { port, scratch: ws, dispose: () => port.dispose() };
    },
  },
  ...(['act', 'plan'] as const).map((mode): Variant => ({
    name: `sandbox, ${mode} mode`,
    make: (ws) => {
      const sandbox = new CommandSandbox({ setting: 'required', allowedHosts: () => [] });
      const port = new NodeTerminalPort({
        cwd: ws,
        sandbox: { sandbox, workspaces: [ws], readOnly: () => mode === 'plan' },
      });
      return {
        port,
        scratch: mode === 'plan' ? '/tmp/scratch' : ws,
        dispose: () => {
          port.dispose();
          sandbox.dispose();
        },
      };
    },
  })),
];

const T = { timeoutMs: 10_000 };

describe('hostile: every terminal call starts clean', function () {
  this.timeout(30_000);
  let ws: string;
  beforeEach(() => {
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-clean-')));
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  for (const v of VARIANTS) {
    describe(v.name, () => {
      let t: ReturnType<Variant['make']>;
      before(function () {
        if (v.name !== 'no sandbox' && !probeSandbox().available) this.skip();
      });
      beforeEach(() => (t = v.make(ws)));
      afterEach(() => t.dispose());

      it('a DEBUG trap set in one call does not run during the next', async () => {
        const f = `${t.scratch}/hit`;
        await t.port.run(`mkdir -p ${t.scratch} && trap 'echo HIT >> ${f}' DEBUG`, T);
        await t.port.run(`rm -f ${f}`, T);
        await t.port.run('ls; echo done', T);
        const seen = await t.port.run(`cat ${f} 2>/dev/null || echo no-hit`, T);
        assert.equal(seen.output, 'no-hit\n');
      });

      it('an alias and a function defined in one call are gone in the next', async () => {
        const defined = await t.port.run("alias hi='echo ALIAS'; greet() { echo FN; }\nhi; greet", T);
        assert.equal(defined.output, 'ALIAS\nFN\n', 'both work within their own call');
        const later = await t.port.run('type hi greet 2>&1; alias; declare -F', T);
        assert.match(later.output, /hi: not found/);
        assert.match(later.output, /greet: not found/);
        assert.doesNotMatch(later.output, /ALIAS|greet \(\)/);
      });

      it('set -e, shopt -s extglob and PROMPT_COMMAND do not carry', async () => {
        await t.port.run("set -e; set -o noclobber; shopt -s extglob; PROMPT_COMMAND='echo PC'", T);
        const later = await t.port.run(
          'echo "$-"; shopt extglob; echo "pc=${PROMPT_COMMAND-}"; false; echo after',
          T,
        );
        assert.doesNotMatch(later.output.split('\n')[0]!, /[eC]/, `no errexit or noclobber: ${later.output}`);
        assert.match(later.output, /extglob\s+off/);
        assert.match(later.output, /pc=\n/);
        assert.match(later.output, /after/, 'set -e did not end the next call at `false`');
      });

      it('cd and export do carry, and the port names what was carried', async () => {
        const sub = `${t.scratch}/sub`;
        const first = await t.port.run(`mkdir -p ${sub} && cd ${sub} && export X=1 Y='a b'`, T);
        assert.equal(first.cwd, sub);
        assert.deepEqual(first.carried, ['X', 'Y']);
        const second = await t.port.run('pwd; echo "$X|$Y"; unset X', T);
        assert.equal(second.output, `${sub}\n1|a b\n`);
        assert.deepEqual(second.carried, ['X'], 'a removed variable is named too');
        const third = await t.port.run('echo "${X-gone}"; exit 3', T);
        assert.equal(third.output, 'gone\n');
        assert.equal(third.exitCode, 3, 'exit ends the command, with its status');
        const fourth = await t.port.run('pwd', T);
        assert.equal(fourth.output, `${sub}\n`, 'the folder still carries after an exit');
      });

      it('state the command tries to smuggle through the carry does not become a hook', async () => {
        // SHELLOPTS and BASH_ENV would turn options and startup code on in the next shell.
        await t.port.run(
          `mkdir -p ${t.scratch}; echo 'echo RC' > ${t.scratch}/rc; set -e; export SHELLOPTS BASH_ENV=${t.scratch}/rc`,
          T,
        );
        const later = await t.port.run('echo "$-"; false; echo after', T);
        assert.doesNotMatch(later.output, /RC/);
        assert.match(later.output, /after/);
      });
    });
  }

  describe('through the CLI, with the scripted model', function () {
    this.timeout(90_000);
    const fx = new CliFixture();
    afterEach(() => fx.cleanup());

    for (const mode of ['act', 'plan'] as const) {
      it(`${mode} mode: the log shows the later command ran alone, and what carried`, async () => {
        const env = await fx.startLlm({
          name: `boundary-shell-${mode}`,
          turns: [
            {
              match: { lastRole: 'user' },
              reply: {
                content: 'Setting up.',
                toolCalls: [
                  // Plan mode refuses traps, aliases, functions and options before they run (its
                  // sandbox is covered through the port above); what carries is checked there too.
                  terminalCall(
                    'call_plant',
                    (mode === 'act'
                      ? "trap 'echo HIT' DEBUG; alias ls='echo ALIAS'; f() { echo FN; }; set -e; shopt -s extglob; "
                      : '') + 'cd sub && export CARRY_ME=1',
                  ),
                  terminalCall(
                    'call_later',
                    mode === 'act'
                      ? 'ls; f; shopt extglob; false; echo "after x=$CARRY_ME"'
                      : 'ls; echo "after x=$CARRY_ME"',
                  ),
                ],
              },
            },
            { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
          ],
        });
        const ws = fx.tmp();
        mkdirSync(join(ws, 'sub'));
        writeFileSync(join(ws, 'sub', 'listed.txt'), '');
        const run = await runCli(
          ['run', '--workspace', ws, '--mode', mode, '--task', 'look', '--confirm', 'never', '--json'],
          { env },
        );
        assert.equal(run.code, 0, printed(run));
        const observations = run.lines
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((e) => e.kind === 'ObservationEvent')
          .map((e) => JSON.stringify(e));
        assert.equal(observations.length, 2, printed(run));
        assert.match(observations[0]!, /carried: working folder [^"]*\/sub, exported: CARRY_ME/);
        const later = observations[1]!;
        assert.match(later, /listed\.txt/, 'ls ran as logged, in the carried folder');
        assert.match(later, /after x=1/, 'the export carried; set -e did not');
        if (mode === 'act') assert.match(later, /extglob\s*\\toff/, 'shopt did not carry');
        assert.doesNotMatch(later, /HIT|ALIAS|FN\\n/, 'no trap, alias or function of the first call');
      });
    }
  });
});
