import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import fc from 'fast-check';
import * as vscode from 'vscode';
import { OutputBuffer } from '../../../src/host/vscode/ports/output-buffer';
import { commandLine, parseStatusMarker, scanForMarker } from '../../../src/host/vscode/ports/shell-sentinel';
import { stripAnsi } from '../../../src/host/vscode/ports/strip-ansi';
import { ConversationTerminals } from '../../../src/host/vscode/ports/conversation-terminals';
import { IntegratedTerminalPort, type TerminalMode } from '../../../src/host/vscode/ports/terminal-port';

const NODE = JSON.stringify(process.execPath);
const workspaceRoot = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const count = (text: string, word: string) => text.split(word).length - 1;

async function setShellIntegration(enabled: boolean | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('terminal.integrated')
    .update('shellIntegration.enabled', enabled, vscode.ConfigurationTarget.Global);
}

/** Behaviour both modes must share; `mode` is the one the port must have chosen. */
function sharedBehaviour(mode: TerminalMode, title: string) {
  let port: IntegratedTerminalPort;

  before(() => {
    port = new IntegratedTerminalPort({ title, shellIntegrationTimeoutMs: 10_000 });
  });
  after(() => port.dispose());

  it(`runs a command in the ${mode} mode with its output and exit code`, async () => {
    const r = await port.run(`echo hi; sh -c 'exit 3'`, { timeoutMs: 20_000 });
    assert.equal(port.mode, mode);
    assert.equal(port.terminal?.name, `Logbook: ${title}`);
    assert.equal(r.timedOut, false);
    assert.equal(r.exitCode, 3);
    assert.equal(r.output.trim(), 'hi');
    assert.equal(port.busy, false);
    const ok = await port.run('echo second', { timeoutMs: 10_000 });
    assert.deepEqual([ok.output.trim(), ok.exitCode], ['second', 0]);
  });

  it('keeps the working directory and exported variables between commands', async () => {
    const sub = `terminal-${randomUUID().slice(0, 8)}`;
    const cd = await port.run(`mkdir -p ${sub} && cd ${sub} && export LOGBOOK_PROBE=kept`, {
      timeoutMs: 10_000,
    });
    assert.equal(cd.exitCode, 0);
    assert.equal(cd.cwd, path.join(workspaceRoot(), sub));
    const r = await port.run('pwd; echo "$LOGBOOK_PROBE"', { timeoutMs: 10_000 });
    assert.deepEqual(r.output.trim().split('\n'), [path.join(workspaceRoot(), sub), 'kept']);
    await port.run(`cd .. && rmdir ${sub}`, { timeoutMs: 10_000 });
  });

  it('returns at the timeout with the output so far, and sendInput("") collects the rest', async () => {
    const r = await port.run('echo start; sleep 2; echo end', { timeoutMs: 800 });
    assert.equal(r.timedOut, true);
    assert.equal(r.exitCode, null);
    assert.match(r.output, /start/);
    assert.doesNotMatch(r.output, /end/);
    assert.equal(port.busy, true);
    await assert.rejects(port.run('echo nope', { timeoutMs: 1000 }), /still running/);
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(port.busy, true, 'busy until the end of the command was returned');
    const started = Date.now();
    const rest = await port.sendInput('', { timeoutMs: 10_000 });
    assert.ok(Date.now() - started < 1000, 'the ended command returns at once');
    assert.equal(rest.timedOut, false);
    assert.equal(rest.exitCode, 0);
    assert.equal(rest.output.trim(), 'end');
    assert.equal(port.busy, false);
  });

  it('sends input text to the running command', async () => {
    const r = await port.run('read line; echo "got:$line"', { timeoutMs: 800 });
    assert.equal(r.timedOut, true);
    const answer = await port.sendInput('hello\n', { timeoutMs: 10_000 });
    assert.equal(answer.exitCode, 0);
    assert.match(answer.output, /got:hello/);
  });

  it('stops waiting when the signal aborts, leaving the command running', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const started = Date.now();
    const r = await port.run('sleep 3; echo late', { timeoutMs: 20_000, signal: abort.signal });
    assert.ok(Date.now() - started < 2000, 'returned at the abort');
    assert.deepEqual([r.exitCode, r.timedOut, port.busy], [null, false, true]);
    const rest = await port.sendInput('', { timeoutMs: 10_000 });
    assert.deepEqual([rest.output.trim(), rest.exitCode], ['late', 0]);
    await assert.rejects(port.run('echo x', { timeoutMs: 1000, signal: AbortSignal.abort() }));
  });

  it('interrupts a running command quickly', async () => {
    const r = await port.run('sleep 60', { timeoutMs: 800 });
    assert.equal(r.timedOut, true);
    const started = Date.now();
    await port.interrupt();
    const after = await port.sendInput('', { timeoutMs: 10_000 });
    assert.equal(after.timedOut, false);
    assert.notEqual(after.exitCode, null);
    assert.notEqual(after.exitCode, 0);
    assert.ok(Date.now() - started < 4000, `interrupt took ${Date.now() - started} ms`);
    const alive = await port.run('echo alive', { timeoutMs: 10_000 });
    assert.deepEqual([alive.output.trim(), alive.exitCode], ['alive', 0]);
  });

  it('lets a long-running process keep running while returning its output so far', async () => {
    const r = await port.run(`${NODE} -e "setInterval(() => console.log('tick'), 200)"`, { timeoutMs: 1500 });
    assert.equal(r.timedOut, true);
    assert.ok(count(r.output, 'tick') >= 2, `output so far: ${JSON.stringify(r.output)}`);
    const more = await port.sendInput('', { timeoutMs: 1000 });
    assert.equal(more.exitCode, null);
    assert.equal(more.timedOut, true);
    assert.ok(count(more.output, 'tick') >= 2, `more output: ${JSON.stringify(more.output)}`);
    assert.equal(port.busy, true);
    await port.interrupt();
    const end = await port.sendInput('', { timeoutMs: 10_000 });
    assert.notEqual(end.exitCode, null);
    assert.equal(port.busy, false);
  });

  it('runs a long command of many lines whole (a heredoc writing a file)', async () => {
    const name = `heredoc-${randomUUID().slice(0, 8)}.txt`;
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} with 'quotes', "double", \\ and $HOME`);
    try {
      const r = await port.run(`cat > ${name} <<'EOF'\n${lines.join('\n')}\nEOF\nwc -l < ${name}`, {
        timeoutMs: 30_000,
      });
      assert.deepEqual([r.exitCode, r.output.trim()], [0, '400']);
      const back = await port.run(`sed -n '1p;400p' ${name}`, { timeoutMs: 10_000 });
      assert.equal(back.output.trim(), `${lines[0]}\n${lines[399]}`);
    } finally {
      await port.run(`rm -f ${name}`, { timeoutMs: 10_000 });
    }
  });

  it('starts a fresh shell on reset', async () => {
    await port.run('export LOGBOOK_RESET=before', { timeoutMs: 10_000 });
    await port.reset();
    const r = await port.run('echo "[$LOGBOOK_RESET]"', { timeoutMs: 20_000 });
    assert.equal(r.output.trim(), '[]');
  });
}

describe('terminal: IntegratedTerminalPort with shell integration', function () {
  this.timeout(60_000);
  sharedBehaviour('shell-integration', 'shell integration test');

  it('strips escape sequences from the output', async () => {
    const port = new IntegratedTerminalPort({ title: 'escapes', shellIntegrationTimeoutMs: 10_000 });
    try {
      const r = await port.run(`printf '\\033[1;31mred\\033[0m \\033]0;title\\007plain\\n'`, {
        timeoutMs: 20_000,
      });
      assert.equal(port.mode, 'shell-integration');
      assert.equal(r.output.trim(), 'red plain');
      assert.doesNotMatch(r.output, /[\x1b\x07]/);
    } finally {
      port.dispose();
    }
  });
});

describe('terminal: one terminal per conversation', function () {
  this.timeout(60_000);

  it('gives each conversation its own shell and closes it with the conversation', async () => {
    const terminals = new ConversationTerminals({ shellIntegrationTimeoutMs: 10_000 });
    try {
      const a = terminals.get('conv-a', 'Task A');
      assert.equal(terminals.get('conv-a', 'Task A'), a);
      const b = terminals.get('conv-b', 'Task B');
      assert.notEqual(b, a);
      await a.run('export WHO=a', { timeoutMs: 20_000 });
      const r = await b.run('echo "[$WHO]"', { timeoutMs: 20_000 });
      assert.equal(r.output.trim(), '[]', 'shells are separate');
      assert.equal(b.terminal?.name, 'Logbook: Task B');
      const closed = new Promise<vscode.Terminal>((resolve) => {
        const sub = vscode.window.onDidCloseTerminal((t) => {
          sub.dispose();
          resolve(t);
        });
      });
      const terminalA = a.terminal;
      terminals.close('conv-a');
      assert.equal(await closed, terminalA);
      assert.notEqual(terminals.get('conv-a', 'Task A'), a, 'a closed conversation gets a fresh port');
    } finally {
      terminals.dispose();
    }
  });
});

describe('terminal: IntegratedTerminalPort without shell integration', function () {
  this.timeout(60_000);
  before(() => setShellIntegration(false));
  after(() => setShellIntegration(undefined));
  sharedBehaviour('pseudoterminal', 'fallback test');

  it('reports the exit code of a shell that exits and starts a new one', async () => {
    const port = new IntegratedTerminalPort({ title: 'exit' });
    try {
      const r = await port.run('echo bye; exit 7', { timeoutMs: 10_000 });
      assert.equal(port.mode, 'pseudoterminal');
      assert.deepEqual([r.output.trim(), r.exitCode], ['bye', 7]);
      const next = await port.run('echo again', { timeoutMs: 10_000 });
      assert.deepEqual([next.output.trim(), next.exitCode], ['again', 0]);
    } finally {
      port.dispose();
    }
  });
});

describe('terminal: escape stripping and the fallback protocol (pure)', () => {
  it('strips CSI, OSC 633/133, charset and 8-bit sequences and renders carriage returns', () => {
    const cases: [string, string][] = [
      ['\x1b]633;C\x07hi\r\n\x1b]633;D;0\x07', 'hi\n'],
      ['\x1b]133;A\x1b\\$ \x1b]133;B\x1b\\', '$ '],
      ['\x1b[1;31mred\x1b[0m \x1b[?2004hplain\x1b[K', 'red plain'],
      ['\x1b(Bx\x1b=y\x1b>', 'xy'],
      ['\x9b31mx\x9d0;t\x9cy', 'xy'],
      ['10%\r50%\r100%\r\n', '100%\n'],
      ['abc\b\bX\n', 'aXc\n'],
      ['tab\there\x00\x07\x7f', 'tab\there'],
      ['\x1bP1$r0m\x1b\\text', 'text'],
    ];
    for (const [raw, plain] of cases) assert.equal(stripAnsi(raw), plain, JSON.stringify(raw));
  });

  const token = fc.oneof(
    fc.stringMatching(/^[a-z %$:/.-]{1,8}$/),
    fc.constantFrom('\n', '\r\n', '\t', 'é', '😀'),
    fc.constantFrom('\x1b[0m', '\x1b[38;5;196m', '\x1b[?25l', '\x1b[2K', '\x1b(B', '\x1b7'),
    fc.constantFrom('\x1b]633;E;echo hi;nonce\x07', '\x1b]633;P;Cwd=/tmp\x1b\\', '\x1b]0;title\x07'),
  );

  it('strips streamed output the same however it is chunked', () => {
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (tokens, cuts) => {
          const raw = tokens.join('');
          const points = [...new Set(cuts.map((c) => c % (raw.length + 1)))].sort((a, b) => a - b);
          const buffer = new OutputBuffer();
          let streamed = '';
          let from = 0;
          for (const p of [...points, raw.length]) {
            buffer.append(raw.slice(from, p));
            streamed += buffer.take();
            from = p;
          }
          streamed += buffer.take(true);
          assert.equal(streamed, stripAnsi(raw));
        },
      ),
    );
  });

  it('drops the echo of the command line at the start of its output, and nothing else', () => {
    const echoed = new OutputBuffer('echo second');
    echoed.append('\x1b[0mecho second\r\nsecond\r\n');
    assert.equal(echoed.take(true), 'second\n');
    const plain = new OutputBuffer('echo second');
    plain.append('second\n');
    assert.equal(plain.take(), 'second\n');
    plain.append('echo second\n');
    assert.equal(plain.take(), 'echo second\n', 'only the first output can be the echo');
    const prefix = new OutputBuffer('ls');
    prefix.append('lsof\n');
    assert.equal(prefix.take(), 'lsof\n', 'a line that only starts like the command stays');
  });

  it('finds the end marker split across chunks and keeps the rest of the output', () => {
    const nonce = 'abc123';
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.integer({ min: 0, max: 300 }),
        fc.nat(),
        (before, after, code, cutSeed) => {
          const clean = (t: string) => t.replace(/\x1e/g, '');
          const stream = `${clean(before)}\x1eLB${nonce};${code};-;/work dir\x1e${clean(after)}`;
          const cut = cutSeed % (stream.length + 1);
          const first = scanForMarker('', stream.slice(0, cut), nonce);
          const second = scanForMarker(first.carry, stream.slice(cut), nonce);
          const marker = first.marker ?? second.marker;
          assert.ok(marker !== undefined);
          assert.deepEqual(parseStatusMarker(marker), { exitCode: code, cwd: '/work dir', carried: [] });
          assert.equal(first.text + second.text + second.carry, clean(before) + clean(after));
        },
      ),
    );
  });

  it('sends each command as one line, quoted for the shell (a plain sh, with no fresh child)', () => {
    const line = commandLine(`echo 'it''s'\nls`, 'n1');
    assert.equal(line.split('\n').length, 3, 'the embedded newline stays inside the quotes');
    assert.ok(line.startsWith(`eval 'echo '\\''it'\\'''\\''s'\\''\nls'; `), line);
    assert.ok(line.endsWith('\n'));
  });
});
