// Comparing a replayed conversation with its recording: each tool call's result (observation,
// rejection or error) as the model saw it, after normalising what differs between any two runs
// (the workspace's and the log's folders, temp paths, ids, timestamps, durations). The first call
// whose result differs is the divergence. A shell that reads the user's startup files may print
// their chatter (a tool manager's warning) where a terminal command's output begins: lines the
// replay's own shell of that kind printed when it started are not compared there, and nowhere else.
import { diffArrays } from 'diff';
import type { Event } from '../events';
import { text } from '../events/accessors';

/** What two runs may differ in and still have done the same: each replaced by a fixed word. */
export interface Normaliser {
  /** Folders of either run, each with the word that stands for it (e.g. `<workspace>`). */
  folders: { path: string; as: string }[];
  /** What a shell of the recording's kind prints when it starts (see `startupChatter`). */
  shellStartup?: string;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const TIMESTAMP = /\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?/g;
// A space at most between number and unit: `cat -n`'s "1<tab>second line" is a line, not a time.
const DURATION = /\b\d+(?:\.\d+)? ?(?:ms|s|sec|secs|seconds?|milliseconds?)\b/g;
const TEMP_PATH = /(?:\/private)?\/(?:tmp|var\/folders)\/[^\s'"`:)\]]*/g;

export function normalise(s: string, n: Normaliser): string {
  let out = s;
  // Longest first: a folder inside another is replaced as itself, not as its parent plus a tail.
  for (const f of [...n.folders].filter((f) => f.path).sort((a, b) => b.path.length - a.path.length))
    out = out.split(f.path).join(f.as);
  return out
    .replace(TIMESTAMP, '<time>')
    .replace(UUID, '<id>')
    .replace(TEMP_PATH, '<tmp>')
    .replace(DURATION, '<duration>');
}

/** One tool call of the recording and its result in each run (undefined: that run has none). */
export interface CallOutcome {
  callId: string;
  tool: string;
  /** The recorded ActionEvent, when the call became one. */
  action: Event | undefined;
  /** Index in the recording of the result (or of the action when the replay has no result). */
  index: number;
  recorded: string;
  replayed: string | undefined;
}

export interface Divergence extends CallOutcome {
  /** Position of the call among those compared (1-based). */
  ordinal: number;
  /** Lines only in the recorded result (-) or only in the replayed one (+), at most `DIFF_LINES`. */
  diff: string[];
}

export const DIFF_LINES = 12;

const RESULT_KINDS = new Set(['ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent']);

function results(
  events: readonly Event[],
  form: (e: Event) => string,
): Map<string, { index: number; text: string }> {
  const out = new Map<string, { index: number; text: string }>();
  events.forEach((e, index) => {
    if (!RESULT_KINDS.has(e.kind)) return;
    const id = (e as { tool_call_id?: string }).tool_call_id;
    if (id && !out.has(id)) out.set(id, { index, text: form(e) });
  });
  return out;
}

/**
 * The recorded tool calls that have a recorded result, in order, each with its replayed result.
 * A call the recording left without a result (it stopped waiting for confirmation) is not compared.
 * `form`: what of a result is compared (default its text as the model saw it).
 */
export function compareCalls(
  recorded: readonly Event[],
  replayed: readonly Event[],
  form: (e: Event) => string = text,
): CallOutcome[] {
  const was = results(recorded, form);
  const now = results(replayed, form);
  const out: CallOutcome[] = [];
  const seen = new Set<string>();
  recorded.forEach((e, i) => {
    const call =
      e.kind === 'ActionEvent' ? e.tool_call : e.kind === 'AgentErrorEvent' ? e.tool_call : undefined;
    if (!call || seen.has(call.id)) return;
    seen.add(call.id);
    const rec = was.get(call.id);
    if (!rec) return;
    const neu = now.get(call.id);
    out.push({
      callId: call.id,
      tool: call.name,
      action: e.kind === 'ActionEvent' ? e : undefined,
      index: neu ? rec.index : i,
      recorded: rec.text,
      replayed: neu?.text,
    });
  });
  return out;
}

/** The tool whose results begin with what a new shell printed. */
const TERMINAL = 'terminal';
const NO_OUTPUT = '(no output)';

/**
 * A terminal result without the startup lines it begins with (and "(no output)" left once they
 * are gone): only lines at its start, and only whole lines the replay's shell printed as it started.
 */
function withoutStartupChatter(result: string, chatter: ReadonlySet<string>): string {
  const lines = result.split('\n');
  let i = 0;
  while (i < lines.length - 1 && chatter.has(lines[i]!.trimEnd())) i++;
  if (lines[i] === NO_OUTPUT) i++;
  return lines.slice(i).join('\n');
}

/** The non-empty lines of a shell's startup output, normalised as the results are. */
function startupChatter(n: Normaliser): Set<string> {
  const text = n.shellStartup ? normalise(n.shellStartup, n) : '';
  return new Set(
    text
      .split(/\r?\n/)
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== ''),
  );
}

/** The first call whose results differ once normalised; undefined when every one matches. */
export function firstDivergence(calls: readonly CallOutcome[], n: Normaliser): Divergence | undefined {
  const chatter = startupChatter(n);
  const comparable = (tool: string, s: string): string =>
    tool === TERMINAL && chatter.size ? withoutStartupChatter(normalise(s, n), chatter) : normalise(s, n);
  for (const [k, c] of calls.entries()) {
    const a = comparable(c.tool, c.recorded);
    const b = c.replayed === undefined ? undefined : comparable(c.tool, c.replayed);
    if (a === b) continue;
    return { ...c, ordinal: k + 1, diff: b === undefined ? [] : lineDiff(a, b) };
  }
  return undefined;
}

/** The lines that differ, in order (the `diff` package's line diff), at most DIFF_LINES. */
export function lineDiff(a: string, b: string): string[] {
  // The first 400 lines of each side: a divergence shows at its start, and the diff stays cheap.
  const x = a.split('\n').slice(0, 400);
  const y = b.split('\n').slice(0, 400);
  const out: string[] = [];
  for (const change of diffArrays(x, y)) {
    if (!change.added && !change.removed) continue;
    for (const line of change.value) out.push(`${change.added ? '+' : '-'} ${line}`);
  }
  return out.slice(0, DIFF_LINES);
}
