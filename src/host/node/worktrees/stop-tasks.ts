// `logbook tasks --stop-all`: interrupts each running task's `logbook run --worktree` process as
// Ctrl+C in its terminal does (SIGINT: the run stops cleanly and its log records the pause). Only a
// process verifiably that task's CLI run is signalled: it started the task and writes its log, on
// this machine, as this user, with the start time its locks recorded (no recycled pid), running the
// same `logbook` program. An editor window's task is left to the window.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { liveWriter } from '../../../core/log';
import type { TaskRecord } from '../../../core/worktrees';

export type StopOutcome = { kind: 'stopped'; pid: number } | { kind: 'idle' } | { kind: 'left'; why: string };

function proc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** The process's start time in ticks since boot (field 22 of its stat; its name may hold spaces). */
function startOf(pid: number): string | undefined {
  const stat = proc(pid, 'stat');
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function uidOf(pid: number): number | undefined {
  const line = proc(pid, 'status')?.match(/^Uid:\s+(\d+)/m);
  return line ? Number(line[1]) : undefined;
}

/** Signals the CLI process running `task`; `program` is this CLI's script (process.argv[1]). */
export function stopTaskProcess(task: TaskRecord, program: string | undefined): StopOutcome {
  const writer = liveWriter(task.log);
  if (!writer) return { kind: 'idle' };
  const owner = liveWriter(dirname(task.log), `${basename(task.log)}.owner`);
  const pid = writer.pid;
  if (writer.hostname !== hostname()) return { kind: 'left', why: `it runs on ${writer.hostname}` };
  const args = proc(pid, 'cmdline')?.split('\0') ?? [];
  if (
    !owner ||
    owner.pid !== pid ||
    pid === process.pid ||
    program === undefined ||
    args[1] !== program ||
    !args.includes('run')
  )
    return {
      kind: 'left',
      why: 'no logbook run in a terminal runs it (an editor window may: stop it there)',
    };
  if (
    writer.procStart === undefined ||
    startOf(pid) !== writer.procStart ||
    uidOf(pid) !== process.getuid?.()
  )
    return { kind: 'left', why: `process ${pid} could not be verified as its run` };
  process.kill(pid, 'SIGINT');
  return { kind: 'stopped', pid };
}
