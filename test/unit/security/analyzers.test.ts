import assert from 'node:assert/strict';
import { analyzeAction, type Analyzer } from '../../../src/core/security';
import { type TerminalPort, trackShellCwd } from '../../../src/core/tools';

const ROOTS = ['/work/project'];

describe('analyzeAction', () => {
  it('takes the highest of the model rating and the rules', () => {
    const modelHigher = analyzeAction('terminal', { command: 'ls', security_risk: 'HIGH' }, ROOTS);
    assert.equal(modelHigher.risk, 'HIGH');
    assert.deepEqual(modelHigher.reasons, ['the model rated it HIGH']);
    const rulesHigher = analyzeAction('terminal', { command: 'rm -rf /', security_risk: 'LOW' }, ROOTS);
    assert.equal(rulesHigher.risk, 'HIGH');
    assert.deepEqual(
      rulesHigher.byAnalyzer.map((r) => [r.analyzer, r.risk]),
      [
        ['llm', 'LOW'],
        ['rules', 'HIGH'],
      ],
    );
  });

  it('lets a rule rating decide when the model gave none (UNKNOWN is no opinion)', () => {
    assert.equal(analyzeAction('terminal', { command: 'ls' }, ROOTS).risk, 'LOW');
    assert.equal(analyzeAction('mcp_tool', { x: 1 }, ROOTS).risk, 'UNKNOWN');
  });

  it('counts an analyzer that throws as HIGH', () => {
    const broken: Analyzer = {
      name: 'broken',
      analyze() {
        throw new Error('boom');
      },
    };
    const result = analyzeAction('terminal', { command: 'ls' }, ROOTS, { analyzers: [broken] });
    assert.equal(result.risk, 'HIGH');
    assert.match(result.reasons[0]!, /broken analyzer failed: boom/);
  });

  it('rates file_editor writes by path and reads more leniently', () => {
    const write = (path: string) =>
      analyzeAction('file_editor', { command: 'str_replace', path }, ROOTS).risk;
    const writeReasons = (path: string) =>
      analyzeAction('file_editor', { command: 'str_replace', path }, ROOTS).reasons.join('; ');
    const view = (path: string, readableRoots: string[] = []) =>
      analyzeAction('file_editor', { command: 'view', path }, ROOTS, { readableRoots }).risk;
    assert.equal(write('src/a.ts'), 'LOW');
    // Outside the folders the agent may write: the tool refuses it in every mode, so nobody is asked.
    assert.equal(write('/etc/hosts'), 'LOW');
    assert.match(
      writeReasons('/etc/hosts'),
      /refused without touching anything: .*outside the folders the agent may write/,
    );
    assert.equal(write('.git/config'), 'HIGH');
    assert.equal(view('src/a.ts'), 'LOW');
    assert.equal(view('/etc/hosts'), 'MEDIUM');
    assert.equal(view('.env'), 'HIGH');
    assert.equal(view('/scratch/terminal-output.txt', ['/scratch']), 'LOW');
  });

  it('rates terminal input by what it does', () => {
    assert.equal(analyzeAction('terminal', { command: '', is_input: true }, ROOTS).risk, 'LOW');
    assert.equal(analyzeAction('terminal', { command: 'C-c', is_input: true }, ROOTS).risk, 'LOW');
    assert.equal(analyzeAction('terminal', { command: 'yes', is_input: true }, ROOTS).risk, 'MEDIUM');
    assert.equal(analyzeAction('terminal', { command: '', reset: true }, ROOTS).risk, 'LOW');
  });
});

describe('analyzeAction: the shell’s working directory', () => {
  const read = { command: 'cat shadow', security_risk: 'LOW' };

  it('judges relative words of a command from where an earlier command left the shell', () => {
    assert.equal(analyzeAction('terminal', read, ['/work/project']).risk, 'LOW');
    const moved = analyzeAction('terminal', read, ['/work/project'], { shellCwd: '/etc' });
    assert.equal(moved.risk, 'MEDIUM');
    assert.match(moved.reasons.join(' '), /\/etc\/shadow/);
  });
});

describe('trackShellCwd', () => {
  it('remembers the folder each result reports and goes back to the start on reset', async () => {
    const reported: (string | undefined)[] = ['/etc', undefined, '/srv'];
    const port: TerminalPort = {
      busy: false,
      run: async () => ({ output: '', exitCode: 0, timedOut: false, cwd: reported.shift() }),
      sendInput: async () => ({ output: '', exitCode: 0, timedOut: false, cwd: reported.shift() }),
      interrupt: async () => {},
      reset: async () => {},
      dispose: () => {},
    };
    const shell = trackShellCwd(port, '/work/project');
    assert.equal(shell.cwd, '/work/project');
    await shell.run('cd /etc', { timeoutMs: 1 });
    assert.equal(shell.cwd, '/etc');
    await shell.run('true', { timeoutMs: 1 });
    assert.equal(shell.cwd, '/etc', 'a result without a folder leaves it');
    await shell.sendInput('', { timeoutMs: 1 });
    assert.equal(shell.cwd, '/srv');
    await shell.reset();
    assert.equal(shell.cwd, '/work/project');
  });
});
