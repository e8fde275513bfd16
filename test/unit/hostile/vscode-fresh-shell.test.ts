// The editor's terminal starts every command clean (issue 47, point 6): its bash gets the fresh-run
// functions through its environment and each command is typed as one `__logbook_run '…'` line, so
// a DEBUG trap, alias, function, PROMPT_COMMAND or shell option of one command is not there in the
// next, while the working folder and exported variables carry and the end mark names them. Here a
// real interactive bash takes the lines the terminal would type, without a sandbox and inside the
// real one in act and plan mode (plan: the workspace is read-only, so the marks go to the
// sandbox's own /tmp, as the state file does). The host suite runs the same in VS Code.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { carryStateFile } from '../../../src/host/node/ports/shell-fresh-run';
import { CommandSandbox, probeSandbox } from '../../../src/host/node/sandbox';
import {
  commandOfLine,
  freshRunLine,
  freshRunTerminalEnvironment,
  lastEndMark,
} from '../../../src/host/vscode/ports/fresh-run-line';
import { outsideFolder } from '../../support/outside-folder';
import { AFTER_PLANTING, plantHooks } from '../../support/shell-hooks-planted';

const END = '\x1b]6973;LB;';

interface Ran {
  output: string;
  carried: string[] | undefined;
  cwd: string | undefined;
}

type Variant = 'no sandbox' | 'act' | 'plan';

/**
 * Types `commands` into an interactive bash started as the terminal starts it, and splits what it
 * printed at the end marks: one entry a command.
 */
async function typeInto(variant: Variant, ws: string, commands: string[]): Promise<Ran[]> {
  const sandboxed = variant !== 'no sandbox';
  const state = carryStateFile(sandboxed);
  const env = freshRunTerminalEnvironment(state);
  const argv = ['bash', '--norc', '--noprofile', '-i'];
  let file = argv[0]!;
  let args = argv.slice(1);
  let spawnEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: ws, ...env };
  const sandbox = sandboxed ? new CommandSandbox({ setting: 'required', allowedHosts: () => [] }) : undefined;
  try {
    if (sandbox) {
      const launch = await sandbox.launch({
        argv,
        workspaces: [ws],
        readOnly: variant === 'plan',
        cwd: ws,
        extraEnv: env,
        newSession: true,
      });
      file = launch.file;
      args = launch.args;
      spawnEnv = { PATH: process.env.PATH };
    }
    const child = spawn(file, args, { cwd: ws, env: spawnEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.resume();
    child.stdin.end(commands.map((c) => freshRunLine(c)).join('\n') + '\n');
    await new Promise((resolve) => child.once('close', resolve));
    const parts = out.split(END);
    // A shell that ended early (a hook that carried, say) leaves the later entries empty.
    return commands.map((_, i) => {
      const part = parts[i] ?? '';
      const before = i === 0 ? part : part.slice(part.indexOf('\x07') + 1);
      const mark = parts[i + 1] !== undefined ? lastEndMark(`${END}${parts[i + 1]}`) : undefined;
      return { output: before, carried: mark?.carried, cwd: mark?.cwd };
    });
  } finally {
    state.dispose();
    await sandbox?.dispose();
  }
}

describe('hostile: the editor terminal starts every command clean (issue 47, point 6)', function () {
  this.timeout(60_000);
  let base: string;
  let ws: string;
  beforeEach(() => {
    base = outsideFolder('fresh-shell-');
    ws = join(base, 'ws');
    mkdirSync(join(ws, 'sub'), { recursive: true });
    writeFileSync(join(ws, 'sub', 'listed.txt'), '');
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('the typed line is one line, and bash reads back exactly the command', async () => {
    const tricky = "printf '%s\\n' 'it'\\''s' \"a\\\\b\"\necho \"two\techo\"\x01";
    const line = freshRunLine(tricky);
    assert.equal(line.split('\n').length, 1);
    assert.doesNotMatch(line, /[\x00-\x08\x0a-\x1f\x7f]/, 'no control character is typed');
    const [ran] = await typeInto('no sandbox', ws, [tricky.replace('\x01', '')]);
    assert.equal(ran!.output, "it's\na\\b\ntwo\techo\n");
    assert.equal(lastEndMark(`x${END}-;/a;b\x07y`)?.cwd, '/a;b', 'a folder with ; is read whole');
  });

  it('the terminal history attaches the command, not the line that wraps it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (command) => {
        const clean = command.replace(/\0/g, '');
        assert.equal(commandOfLine(freshRunLine(command)), clean);
      }),
    );
    assert.equal(commandOfLine('ls -la'), 'ls -la', 'a line the user typed stays');
  });

  for (const variant of ['no sandbox', 'act', 'plan'] as const) {
    describe(variant, () => {
      before(function () {
        if (variant !== 'no sandbox' && !probeSandbox().available) this.skip();
      });

      it('a trap, alias, function, PROMPT_COMMAND and option of one command are gone in the next', async () => {
        // In plan mode the workspace is read-only: the hooks write to the sandbox's /tmp.
        const mark = variant === 'plan' ? '/tmp/hook-mark' : join(ws, 'hook-mark');
        const [planted, removed, later, seen] = await typeInto(variant, ws, [
          plantHooks(mark),
          `rm -f ${mark}`,
          AFTER_PLANTING,
          `cat ${mark} 2>/dev/null || echo no-hit`,
        ]);
        assert.match(planted!.output, /ALIAS\s+FN/, 'all of it worked within its own command');
        assert.deepEqual([planted!.cwd, planted!.carried], [join(ws, 'sub'), ['CARRY_ME']]);
        assert.equal(removed!.output, '');
        assert.match(later!.output, /listed\.txt/, 'ls ran as typed, in the carried folder');
        assert.match(later!.output, /greet: not found/);
        assert.match(later!.output, /extglob\s+off/);
        assert.match(
          later!.output,
          /after x=1 pc=\n/,
          'the export carried; set -e and PROMPT_COMMAND did not',
        );
        assert.deepEqual(later!.carried, []);
        assert.equal(seen!.output, 'no-hit\n', 'no hook fired after the command that set it');
      });

      it('a command cannot smuggle a hook or its own functions through the carry', async () => {
        const [, later] = await typeInto(variant, ws, [
          "export SHELLOPTS BASH_ENV=/etc/passwd IFS=: TMOUT=1 PS1='$(echo PS)'; set -e",
          'echo "$-|${IFS}|${TMOUT-none}"; false; declare -F; env | grep -c "^BASH_FUNC" ; echo "s=${__logbook_state-unset}"',
        ]);
        assert.match(later!.output, /\| \t\n\|none\n/, `IFS and TMOUT did not carry: ${later!.output}`);
        assert.doesNotMatch(later!.output, /__logbook/, 'the terminal’s own functions are not the command’s');
        assert.match(later!.output, /^0\ns=unset\n/m);
      });
    });
  }
});
