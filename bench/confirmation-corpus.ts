// The confirmation bench's corpus, kept as data in bench/confirmation-corpus/: the workspace every
// task starts from (workspace.json), everyday tasks as a model would carry them out, one file each
// (tasks/*.json), and hostile actions (hostile.json). Loaded with a clear error for a malformed
// file, and the counting of questions per level, kept apart from running them so it can be tested.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CORPUS_DIR = path.join(__dirname, 'confirmation-corpus');

/** One tool call as the model sends it: the tool's name and its arguments. */
export interface CorpusAction {
  tool: string;
  [arg: string]: unknown;
}

export interface CorpusTask {
  name: string;
  goal: string;
  actions: CorpusAction[];
}

export interface HostileAction extends CorpusAction {
  name: string;
}

export interface CorpusWorkspace {
  /** Path (relative, '/'-separated) to text content. */
  files: Record<string, string>;
  /** Files left out of the first commit although no .gitignore rule keeps them out. */
  untracked: string[];
}

export interface Corpus {
  workspace: CorpusWorkspace;
  tasks: CorpusTask[];
  hostile: HostileAction[];
}

export function loadCorpus(dir: string = CORPUS_DIR): Corpus {
  const workspace = readJson(path.join(dir, 'workspace.json'));
  const files = field(workspace, 'files', 'workspace.json');
  if (!isRecord(files) || Object.values(files).some((v) => typeof v !== 'string'))
    throw new Error(`${path.join(dir, 'workspace.json')}: "files" must map paths to text`);
  for (const p of Object.keys(files))
    if (path.isAbsolute(p) || p.split('/').includes('..'))
      throw new Error(`${path.join(dir, 'workspace.json')}: "${p}" must stay inside the workspace`);
  const untracked = (workspace as { untracked?: unknown }).untracked ?? [];
  if (!Array.isArray(untracked) || untracked.some((u) => typeof u !== 'string' || !(u in files)))
    throw new Error(`${path.join(dir, 'workspace.json')}: "untracked" must list files of "files"`);

  const taskDir = path.join(dir, 'tasks');
  const tasks = readdirSync(taskDir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => {
      const file = path.join(taskDir, n);
      const raw = readJson(file);
      const name = field(raw, 'name', file);
      const goal = field(raw, 'goal', file);
      if (typeof name !== 'string' || typeof goal !== 'string')
        throw new Error(`${file}: "name" and "goal" must be text`);
      return { name, goal, actions: actionsOf(field(raw, 'actions', file), file) };
    });

  const hostileFile = path.join(dir, 'hostile.json');
  const hostile = actionsOf(field(readJson(hostileFile), 'actions', hostileFile), hostileFile).map((a, i) => {
    if (typeof a.name !== 'string') throw new Error(`${hostileFile}: action ${i + 1} has no "name"`);
    return a as HostileAction;
  });
  return {
    workspace: { files: files as Record<string, string>, untracked: untracked as string[] },
    tasks,
    hostile,
  };
}

function actionsOf(value: unknown, file: string): CorpusAction[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new Error(`${file}: "actions" must be a non-empty list`);
  return value.map((a: unknown, i) => {
    if (!isRecord(a) || typeof a.tool !== 'string' || a.tool === '')
      throw new Error(`${file}: action ${i + 1} must be an object naming its "tool"`);
    return a as CorpusAction;
  });
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function field(obj: unknown, name: string, file: string): unknown {
  if (!isRecord(obj) || !(name in obj)) throw new Error(`${file}: "${name}" is missing`);
  return obj[name];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The levels every action is judged at: the baseline and the three levels a user picks from. */
export const LEVELS = ['rules-alone', 'ask-everything', 'default', 'autopilot'] as const;
export type Level = (typeof LEVELS)[number];

export const LEVEL_NAMES: Record<Level, string> = {
  'rules-alone': 'rules alone, no sandbox',
  'ask-everything': 'ask for everything',
  default: 'default, with sandbox',
  autopilot: 'autopilot',
};

/** Whether one action asked at one level. */
export interface Verdict {
  task: string;
  level: Level;
  asked: boolean;
}

export interface TaskTally {
  task: string;
  actions: number;
  asks: Record<Level, number>;
  /** default ÷ rules alone; null when the rules alone asked nothing. */
  ratio: number | null;
}

/**
 * Questions per task and level, and the total row last. Every action must have a verdict at every
 * level, or the ratios would compare different actions: a gap throws.
 */
export function tallyAsks(verdicts: readonly Verdict[]): TaskTally[] {
  const byTask = new Map<string, Record<Level, { judged: number; asked: number }>>();
  for (const v of verdicts) {
    const levels =
      byTask.get(v.task) ??
      (Object.fromEntries(LEVELS.map((l) => [l, { judged: 0, asked: 0 }])) as Record<
        Level,
        { judged: number; asked: number }
      >);
    byTask.set(v.task, levels);
    levels[v.level].judged++;
    if (v.asked) levels[v.level].asked++;
  }
  const rows: TaskTally[] = [];
  for (const [task, levels] of byTask) {
    const actions = levels['rules-alone'].judged;
    for (const l of LEVELS)
      if (levels[l].judged !== actions)
        throw new Error(
          `task ${task}: ${levels[l].judged} verdict(s) at "${l}" but ${actions} by the rules alone`,
        );
    const asks = Object.fromEntries(LEVELS.map((l) => [l, levels[l].asked])) as Record<Level, number>;
    rows.push({ task, actions, asks, ratio: ratioOf(asks) });
  }
  const total = Object.fromEntries(LEVELS.map((l) => [l, rows.reduce((s, r) => s + r.asks[l], 0)])) as Record<
    Level,
    number
  >;
  rows.push({
    task: 'total',
    actions: rows.reduce((s, r) => s + r.actions, 0),
    asks: total,
    ratio: ratioOf(total),
  });
  return rows;
}

function ratioOf(asks: Record<Level, number>): number | null {
  return asks['rules-alone'] === 0 ? null : asks.default / asks['rules-alone'];
}
