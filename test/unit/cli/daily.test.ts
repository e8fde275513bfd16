// The CLI for daily use: `run` asks in place on a terminal (a real pseudo-terminal), `run "task"`
// works in the current folder, the commands that answer or read a conversation take the newest one
// of the current folder, and a pending edit's diff is shown before anyone says yes.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from './fixtures';
import { runInTerminal, terminalAvailable } from './terminal-runner';

const MATH = 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n';

function editCall(id: string) {
  return {
    id,
    name: 'file_editor',
    arguments: {
      command: 'str_replace',
      path: 'src/math.js',
      old_str: 'module.exports = { add };',
      new_str: 'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };',
      security_risk: 'MEDIUM',
      summary: 'Add subtract() to src/math.js',
    },
  };
}

function sampleWorkspace(fx: CliFixture): string {
  const ws = fx.tmp();
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'math.js'), MATH);
  return ws;
}

const QUESTION = /\[y\]es \/ \[n\]o( \/ \[a\]lways allow)? \/ \[s\]how more: $/;

describe('logbook for daily use', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  describe('run asks in place on a terminal', function () {
    before(function () {
      if (!terminalAvailable()) this.skip();
    });

    it('shows the edit as a diff with its risk, and yes applies it in the same process', async () => {
      const env = await fx.startLlm({
        name: 'ask-edit',
        turns: [
          { match: { lastRole: 'user' }, reply: { toolCalls: [editCall('call_edit')] } },
          { match: { lastRole: 'tool', toolResultIncludes: 'Edited' }, reply: { content: 'Added it.' } },
        ],
      });
      const ws = sampleWorkspace(fx);
      const r = await runInTerminal(['run', 'add subtract', '--confirmation-mode', 'always'], {
        env,
        cwd: ws,
        answers: [{ after: QUESTION, text: 'y' }],
      });
      assert.equal(r.code, 0, r.screen);
      const asked = r.screen.slice(0, r.screen.search(QUESTION));
      assert.match(asked, /The agent wants to: Add subtract\(\) to src\/math\.js/);
      assert.match(asked, /risk MEDIUM/);
      assert.match(asked, /--- a\/src\/math\.js/);
      assert.match(asked, /-module\.exports = \{ add \};/);
      assert.match(asked, /\+module\.exports = \{ add, subtract \};/);
      assert.match(readFileSync(join(ws, 'src', 'math.js'), 'utf8'), /subtract/);
      assert.match(r.screen, /Finished\./);
      // The yes is recorded as `logbook approve` records it.
      const log = await readLogJson(onlyConversationDir(ws));
      assert.ok(
        log.some((e) => e.key === 'approved_actions'),
        'an approval event',
      );
    });

    it('no asks why, and the agent reads the reason; the run goes on in the same process', async () => {
      const env = await fx.startLlm({
        name: 'ask-reject',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: { toolCalls: [terminalCall('call_rm', 'rm -rf build', 'HIGH')] },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'keep the build folder' },
            reply: { content: 'Left build alone.' },
          },
        ],
      });
      const ws = fx.tmp();
      mkdirSync(join(ws, 'build'));
      const r = await runInTerminal(['run', 'clean up'], {
        env,
        cwd: ws,
        answers: [
          { after: QUESTION, text: 'n' },
          { after: /Why not\?.*: $/, text: 'keep the build folder' },
        ],
      });
      assert.equal(r.code, 0, r.screen);
      assert.match(r.screen, /\$ rm -rf build/);
      assert.match(r.screen, /risk HIGH/);
      assert.match(r.screen, /Left build alone\./);
      const log = await readLogJson(onlyConversationDir(ws));
      const rejection = log.find((e) => e.kind === 'UserRejectObservation');
      assert.equal(rejection?.rejection_reason, 'keep the build folder');
    });

    it('always allow adds the command rule to the user config file and runs it', async () => {
      const env = await fx.startLlm({
        name: 'ask-always',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: { toolCalls: [terminalCall('call_ls', 'ls -la', 'MEDIUM')] },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Listed.' } },
        ],
      });
      const ws = fx.tmp();
      const config = fx.tmp();
      const r = await runInTerminal(['run', 'list', '--confirmation-mode', 'always'], {
        env: { ...env, XDG_CONFIG_HOME: config },
        cwd: ws,
        answers: [
          { after: QUESTION, text: 'a' },
          { after: /Always allow commands starting with "ls".*: $/, text: '' },
        ],
      });
      assert.equal(r.code, 0, r.screen);
      const saved = JSON.parse(readFileSync(join(config, 'logbook', 'config.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.deepEqual(saved['confirmation.allowRules'], ['ls']);
      assert.match(r.screen, /Listed\./);
    });

    it('answers each action of a batch on its own: yes to one, no to the other', async () => {
      const env = await fx.startLlm({
        name: 'ask-batch',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: {
              toolCalls: [
                terminalCall('call_a', 'echo a > a.txt', 'MEDIUM'),
                terminalCall('call_b', 'echo b > b.txt', 'MEDIUM'),
              ],
            },
          },
          { match: { lastRole: 'tool', toolResultIncludes: 'not b' }, reply: { content: 'Wrote a only.' } },
        ],
      });
      const ws = fx.tmp();
      const r = await runInTerminal(['run', 'write both', '--confirmation-mode', 'always'], {
        env,
        cwd: ws,
        answers: [
          { after: /\[1\/2\] The agent wants to: echo a > a\.txt[\s\S]*\[s\]how more: $/, text: 'y' },
          { after: /\[2\/2\] The agent wants to: echo b > b\.txt[\s\S]*\[s\]how more: $/, text: 'n' },
          { after: /Why not\?.*: $/, text: 'not b' },
        ],
      });
      assert.equal(r.code, 0, r.screen);
      assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'a\n');
      assert.equal(existsSync(join(ws, 'b.txt')), false, r.screen);
      assert.match(r.screen, /Wrote a only\./);
    });

    it('Ctrl+C at the question interrupts the run: paused, exit 130, nothing run', async () => {
      const env = await fx.startLlm({
        name: 'ask-ctrl-c',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: { toolCalls: [terminalCall('c', 'echo x > x.txt', 'MEDIUM')] },
          },
        ],
      });
      const ws = fx.tmp();
      const r = await runInTerminal(['run', 'write', '--confirmation-mode', 'always'], {
        env,
        cwd: ws,
        answers: [{ after: QUESTION, text: '\x03' }],
      });
      assert.equal(r.code, 130, r.screen);
      assert.match(r.screen, /^Paused\.$/m);
      assert.equal(existsSync(join(ws, 'x.txt')), false);
    });

    it('always allow holds for the rest of the run: a later command it covers is not asked about', async () => {
      const env = await fx.startLlm({
        name: 'ask-always-run',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: { toolCalls: [terminalCall('c1', 'echo one > a.txt', 'MEDIUM')] },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'exit code 0' },
            reply: { toolCalls: [terminalCall('c2', 'echo two > b.txt', 'MEDIUM')] },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Both written.' } },
        ],
      });
      const ws = fx.tmp();
      const config = fx.tmp();
      // Without a sandbox every command asks in the default mode; the rule is what lets it through.
      const r = await runInTerminal(['run', 'write two', '--sandbox', 'off'], {
        env: { ...env, XDG_CONFIG_HOME: config },
        cwd: ws,
        answers: [
          { after: QUESTION, text: 'a' },
          { after: /Always allow commands starting with "echo one".*: $/, text: 'echo' },
        ],
      });
      assert.equal(r.code, 0, r.screen);
      assert.equal(r.screen.match(/The agent wants to:/g)?.length, 1, r.screen);
      assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'two\n');
      assert.match(r.screen, /Both written\./);
    });

    it('--no-input at a terminal exits 2 as a script would', async () => {
      const env = await fx.startLlm({
        name: 'no-input',
        turns: [{ match: { lastRole: 'user' }, reply: { toolCalls: [editCall('call_edit')] } }],
      });
      const ws = sampleWorkspace(fx);
      const r = await runInTerminal(['run', 'add subtract', '--confirmation-mode', 'always', '--no-input'], {
        env,
        cwd: ws,
      });
      assert.equal(r.code, 2, r.screen);
      assert.doesNotMatch(r.screen, QUESTION);
      assert.match(r.screen, /logbook approve /);
      assert.equal(readFileSync(join(ws, 'src', 'math.js'), 'utf8'), MATH);
    });
  });

  it('run "task" works in the current folder; approve and show take its newest conversation', async () => {
    const env = await fx.startLlm({
      name: 'newest',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [editCall('call_edit')] } },
        { match: { lastRole: 'tool', toolResultIncludes: 'Edited' }, reply: { content: 'Added it.' } },
      ],
    });
    const ws = sampleWorkspace(fx);
    // Not a terminal: the question ends the process with 2, as scripts expect.
    const first = await runCli(['run', 'add subtract', '--confirmation-mode', 'always'], { env, cwd: ws });
    assert.equal(first.code, 2, printed(first));
    const dir = onlyConversationDir(ws);
    // The run's own output shows the change it waits on.
    assert.match(first.stdout, /\+module\.exports = \{ add, subtract \};/, printed(first));

    const show = await runCli(['show', '--json'], { cwd: join(ws, 'src') });
    assert.equal(show.code, 0, printed(show));
    assert.match(show.stderr, /using the newest conversation here/);
    const state = JSON.parse(show.stdout) as { dir: string; pending_actions: { diff: string | null }[] };
    assert.equal(state.dir, dir);
    assert.match(state.pending_actions[0]!.diff ?? '', /^--- a\/src\/math\.js\n\+\+\+ b\/src\/math\.js\n@@/);
    assert.match(state.pending_actions[0]!.diff ?? '', /\n\+function subtract\(a, b\) \{\n/);
    const text = await runCli(['show'], { cwd: ws });
    assert.match(text.stdout, /^ {4}-module\.exports = \{ add \};$/m, printed(text));

    const approve = await runCli(['approve'], { env, cwd: ws });
    assert.equal(approve.code, 0, printed(approve));
    assert.match(approve.stderr, new RegExp(`using the newest conversation here, \\.logbook/conversations/`));
    assert.match(readFileSync(join(ws, 'src', 'math.js'), 'utf8'), /subtract/);
  });

  it('with no conversation in the current folder, a command that needs one says so', async () => {
    const ws = fx.tmp();
    const r = await runCli(['approve'], { cwd: ws });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /no CONV_DIR given, and .* has no conversation/);
  });

  it('names every point the same way: the printed after-action id, start, now; the first checkpoint is the starting state', async () => {
    const env = await fx.startLlm({
      name: 'points',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [editCall('call_edit')] } },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Edited' },
          reply: {
            toolCalls: [
              {
                id: 'call_finish',
                name: 'finish',
                arguments: {
                  message:
                    'Done. Run **npm test** to check `src/math.js`.\nSee [the notes](https://example.com).',
                },
              },
            ],
          },
        },
      ],
    });
    const ws = sampleWorkspace(fx);
    const run = await runCli(['run', 'add subtract', '--confirmation-mode', 'never'], { env, cwd: ws });
    assert.equal(run.code, 0, printed(run));
    // Compared with nothing, every file was "changed": it is said as what it is.
    assert.match(run.stdout, /^\[checkpoint\] [0-9a-f]{12}: the starting state, 1 file\(s\)$/m, printed(run));
    assert.doesNotMatch(run.stdout, /^\[checkpoint\] [0-9a-f]{12}: 1 file\(s\) changed$/m);
    // The answer once, in terminal words, whole.
    assert.deepEqual(
      [
        ...run.lines.filter((l) => /finish/.test(l)),
        run.lines[run.lines.findIndex((l) => /finish/.test(l)) + 1],
      ],
      ['[agent] finish: Done. Run npm test to check src/math.js.', '  See the notes (https://example.com).'],
      printed(run),
    );
    const after = /^\[checkpoint\] ([0-9a-f]{12}): after the action, 1 file\(s\) changed by it$/m.exec(
      run.stdout,
    )?.[1];
    assert.ok(after, printed(run));

    const listed = await runCli(['checkpoints'], { cwd: ws });
    assert.match(listed.stdout, new RegExp(`after it: checkpoint ${after}`), printed(listed));
    assert.match(listed.lines[1]!, / start {2}file_editor: str_replace src\/math\.js$/, printed(listed));

    for (const to of [after, 'now', 'end']) {
      const diff = await runCli(['diff', '--from', 'start', '--to', to], { cwd: ws });
      assert.equal(diff.code, 0, printed(diff));
      assert.match(diff.stdout, /^diff from event 0 .*: 1 file changed$/m, printed(diff));
      assert.match(diff.stdout, /^\+module\.exports = \{ add, subtract \};$/m);
    }
    const at = await runCli(['show', '--at', 'now', '--json'], { cwd: ws });
    assert.equal(at.code, 0, printed(at));
    assert.equal((JSON.parse(at.stdout) as { status: string }).status, 'finished');
  });
});
