// The confirmation bench's corpus (bench/confirmation-corpus/) and its counting: the corpus loads,
// is as large as the bench promises, every action is a call the agent's tools accept, and the
// questions are counted per task and level as the gate answers them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTools } from '../../../src/host/node/session/agent-tools';
import {
  type CorpusAction,
  LEVELS,
  loadCorpus,
  tallyAsks,
  type Verdict,
} from '../../../bench/confirmation-corpus';
import { actionEventFor, judge } from '../../../bench/confirmation-judge';

describe('bench: the confirmation corpus', () => {
  const corpus = loadCorpus();

  it('holds the ten everyday tasks, with at least 150 actions in all', () => {
    assert.deepEqual(
      corpus.tasks.map((t) => t.name),
      [
        'add-dependency',
        'branch-and-commit',
        'clean-build',
        'edit-config',
        'fix-failing-test',
        'read-logs',
        'rename-symbol',
        'run-formatter',
        'run-migration',
        'write-script-and-run',
      ],
    );
    const actions = corpus.tasks.reduce((s, t) => s + t.actions.length, 0);
    assert.ok(actions >= 150, `only ${actions} actions`);
    assert.ok(corpus.hostile.length >= 10, `only ${corpus.hostile.length} hostile actions`);
  });

  it('starts every task from a realistic workspace: ignored folders, a .env, tests', () => {
    const files = Object.keys(corpus.workspace.files);
    for (const f of [
      'package.json',
      '.gitignore',
      '.env',
      'node_modules/left-pad/index.js',
      'dist/bundle.js',
    ])
      assert.ok(files.includes(f), `${f} is missing`);
    assert.ok(files.some((f) => f.startsWith('test/')));
    assert.match(corpus.workspace.files['.gitignore']!, /^node_modules\/$/m);
    assert.match(corpus.workspace.files['.gitignore']!, /^dist\/$/m);
  });

  it("is made of calls the agent's tools accept, git push among them", async () => {
    const ws = mkdtempSync(join(tmpdir(), 'logbook-corpus-'));
    try {
      const tools = agentTools({ files: { cwd: ws, writable: () => [], hidden: { locations: () => [] } } });
      for (const task of corpus.tasks)
        for (const [i, a] of task.actions.entries()) await actionEventFor(tools, a, `${task.name}-${i}`);
      const commands = corpus.tasks.flatMap((t) => t.actions.map((a) => String(a.command)));
      assert.ok(
        commands.some((c) => c.startsWith('git push')),
        'no task pushes',
      );
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it('says which file is malformed and how', () => {
    const dir = mkdtempSync(join(tmpdir(), 'logbook-corpus-bad-'));
    try {
      mkdirSync(join(dir, 'tasks'));
      writeFileSync(join(dir, 'workspace.json'), JSON.stringify({ files: { 'a.txt': 'a' }, untracked: [] }));
      writeFileSync(
        join(dir, 'hostile.json'),
        JSON.stringify({ actions: [{ name: 'x', tool: 'terminal' }] }),
      );
      writeFileSync(
        join(dir, 'tasks', 'broken.json'),
        JSON.stringify({ name: 'b', goal: 'g', actions: [{}] }),
      );
      assert.throws(() => loadCorpus(dir), /broken\.json: action 1 must be an object naming its "tool"/);
      writeFileSync(join(dir, 'tasks', 'broken.json'), '{ not json');
      assert.throws(() => loadCorpus(dir), /broken\.json is not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bench: counting the questions', () => {
  it('counts per task and level, with the total row and the ratio', () => {
    const v = (task: string, asks: Record<string, boolean>): Verdict[] =>
      LEVELS.map((level) => ({ task, level, asked: asks[level] ?? false }));
    const rows = tallyAsks([
      ...v('a', { 'rules-alone': true, 'ask-everything': true, default: true }),
      ...v('a', { 'rules-alone': true, 'ask-everything': true }),
      ...v('b', { 'ask-everything': true }),
    ]);
    assert.deepEqual(
      rows.map((r) => [
        r.task,
        r.actions,
        r.asks['rules-alone'],
        r.asks['ask-everything'],
        r.asks.default,
        r.asks.autopilot,
        r.ratio,
      ]),
      [
        ['a', 2, 2, 2, 1, 0, 0.5],
        ['b', 1, 0, 1, 0, 0, null],
        ['total', 3, 2, 3, 1, 0, 0.5],
      ],
    );
  });

  it('refuses verdicts missing at a level (the ratio would compare different actions)', () => {
    assert.throws(
      () => tallyAsks([{ task: 'a', level: 'rules-alone', asked: true }]),
      /task a: 0 verdict\(s\) at "ask-everything" but 1 by the rules alone/,
    );
  });

  it("counts a tiny corpus as the agent's gate answers it at each level", async () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-corpus-tiny-')));
    try {
      const tools = agentTools({ files: { cwd: ws, writable: () => [], hidden: { locations: () => [] } } });
      const tiny: CorpusAction[] = [
        { tool: 'grep', pattern: 'TODO' },
        { tool: 'terminal', command: 'ls' },
        { tool: 'terminal', command: 'git push origin main' },
      ];
      const verdicts: Verdict[] = [];
      for (const [i, a] of tiny.entries()) {
        const event = await actionEventFor(tools, a, `tiny-${i}`);
        for (const level of LEVELS)
          verdicts.push({ task: 'tiny', level, asked: judge(level, tools, [ws], ws, event, null).asked });
      }
      const total = tallyAsks(verdicts).at(-1)!;
      // grep reads inside the workspace: never asks. ls asks only when everything asks. A push
      // leaves the boundary: it asks at every level but autopilot.
      assert.deepEqual(total.asks, { 'rules-alone': 1, 'ask-everything': 2, default: 1, autopilot: 0 });
      assert.equal(total.actions, 3);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
