// `logbook fork TASK|LOG [--at ID] [--name NEW]` on a worktree task's conversation: a new task,
// on a branch and worktree of its own, holding the source task's files at that point and its
// conversation up to it (worktrees/fork-task.ts). `logbook run --store LOG "…"` goes on there, in
// the new task's worktree, with the sandbox and confirmations of any task.
import { randomUUID } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { forkStore } from '../../../core/agent/fork';
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { Event } from '../../../core/events';
import type { EventStore } from '../../../core/log/event-store';
import { llmSettingsFrom } from '../../../core/settings';
import type { TaskRecord } from '../../../core/worktrees';
import { printableLine } from '../../../core/text/printable';
import { cliHeadFile } from '../config-dir';
import { openConversationStore } from '../session/conversation-store';
import { copyCheckpoints } from '../checkpoints/checkpoint-copy';
import { GitCheckpointStore, storeDirFor } from '../checkpoints/git-checkpoint-store';
import { hostCommandLog } from '../worktrees/continued-setup-log';
import { checkpointsToCopy, createContinuedTask, filesAt } from '../worktrees/fork-task';
import {
  editorCheckpointsRoot,
  editorStoreDirOf,
  noteEditorCheckpoints,
} from '../worktrees/task-checkpoint-stores';
import type { TaskStore } from '../worktrees/task-store';
import { checkpointStore } from './checkpoint-env';
import { cliSettings } from './cli-settings';
import { openReadOnly, readEvents } from './conversation-dir';
import { EXIT } from './exit-codes';
import { findEvent } from './find-event';
import type { CliIo } from './io';
import { keepRecord } from './kept-record';
import { newSessionInfo, readSessionInfo, writeSessionInfo } from './session-file';
import { cliSigningIdentity } from './signing';
import { cliTaskStore } from './task-cli';
import { runSetup, setupSteps } from './task-setup';

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The task whose log is `dir`, looked for in the repository here and in the one the log works in. */
export function taskOfLog(io: CliIo, dir: string): { store: TaskStore; task: TaskRecord } | undefined {
  const wanted = real(dir);
  const places = [io.cwd, readSessionInfo(dir)?.workspace].filter((p): p is string => !!p);
  for (const from of places) {
    let store: TaskStore;
    try {
      store = cliTaskStore('fork', io, from);
    } catch {
      continue; // not a repository (or gone): the log is no task of it
    }
    const task = store.list().find((t) => real(t.log) === wanted);
    if (task) return { store, task };
  }
  return undefined;
}

/** The source's stores, where the CLI keeps them and where the editor noted it keeps them. */
function sourceStores(source: TaskRecord, cli: GitCheckpointStore): GitCheckpointStore[] {
  const editorDir = editorStoreDirOf(source.log, source.worktree);
  return editorDir && editorDir !== cli.storeDir
    ? [cli, new GitCheckpointStore({ workspace: source.worktree, storeDir: editorDir })]
    : [cli];
}

/** The stores the new task's copied points go into; the editor's root is noted for it as for the source. */
function newStores(source: TaskRecord, record: TaskRecord, cli: GitCheckpointStore): GitCheckpointStore[] {
  const root = editorCheckpointsRoot(source.log);
  if (!root) return [cli];
  try {
    noteEditorCheckpoints(record.log, root);
  } catch {
    // Unnoted, the editor's copy is still there; only a later fork of the new task looks elsewhere.
  }
  const storeDir = storeDirFor(root, record.worktree);
  return storeDir === cli.storeDir
    ? [cli]
    : [cli, new GitCheckpointStore({ workspace: record.worktree, storeDir })];
}

/** Writes the checkpoint from the first store that holds it; the first store's error when none does. */
async function materializeFrom(stores: readonly GitCheckpointStore[], checkpoint: string, target: string) {
  let first: unknown;
  for (const store of stores) {
    try {
      return await store.materialize(checkpoint, target);
    } catch (err) {
      first ??= err;
    }
  }
  throw first;
}

async function headOf(store: EventStore<StoredConversationEvent>): Promise<string> {
  return ((await store.get(store.length - 1)) as Event).id;
}

export async function forkTask(
  io: CliIo,
  found: { store: TaskStore; task: TaskRecord },
  at: string | undefined,
  name: string | undefined,
): Promise<number> {
  const { store, task: source } = found;
  const settings = cliSettings('fork', io.env, { warn: (line) => io.err(line) });
  // The setup step a new task of this repository runs, asked about before anything is made.
  const setup = await setupSteps(io, settings, source.repository);
  const log = await openReadOnly(source.log);
  let eventId: string;
  let files: ReturnType<typeof filesAt>;
  let events: readonly Event[];
  try {
    ({ events } = await readEvents(log));
    eventId =
      at === undefined || at === 'now'
        ? (events.at(-1)?.id ?? '')
        : (await findEvent(log, at, source.name)).eventId;
    files = filesAt(events, eventId);
  } catch (err) {
    await log.close();
    throw err;
  }
  const stores = sourceStores(source, checkpointStore(source.worktree, settings, io.env));
  try {
    const record = await createContinuedTask(store, source, {
      ...(name !== undefined ? { name } : {}),
      files,
      materialize: (checkpoint, target) => materializeFrom(stores, checkpoint, target),
    });
    const id = randomUUID();
    mkdirSync(record.log, { recursive: true });
    const target = await openConversationStore(record.log, {
      signing: cliSigningIdentity(io, settings),
      conversationId: id,
      headFile: cliHeadFile(io.env, record.log),
      lockHolder: `logbook fork (pid ${process.pid})`,
    });
    try {
      await forkStore(log, readSessionInfo(source.log)?.id ?? source.name, eventId, target);
      // Into the CLI's store of the new worktree, and the editor's when the source notes where it is.
      for (const into of newStores(source, record, checkpointStore(record.worktree, settings, io.env)))
        await keepCopiedCheckpoints(io, stores, into, id, { events, eventId });
      const before = readSessionInfo(source.log);
      const {
        title: _title,
        created_at: _created,
        ...kept
      } = before ?? {
        created_at: '',
        confirmation: 'risky' as const,
        max_iterations: null,
        max_tool_calls_per_reply: null,
        model: null,
      };
      const info = newSessionInfo({ ...kept, id, workspace: record.worktree });
      writeSessionInfo(record.log, info);
      keepRecord(io.env, record.log, info);
      io.err(
        printableLine(
          `task ${record.name}: continued from task ${source.name} at event ${eventId}; branch ${record.branch} ` +
            `from ${record.base.slice(0, 10)}, worktree ${record.worktree}` +
            ('base' in files
              ? ' (no action had run: the base commit’s files)'
              : ' (the files at that point)'),
        ),
      );
      io.out(record.log);
      // As for a new task: in the new worktree, in the sandbox, recorded in its log; a failure keeps the task.
      await runSetup(
        io,
        settings,
        llmSettingsFrom(settings.resolved),
        record.worktree,
        setup,
        hostCommandLog(target, await headOf(target)),
        true,
      );
    } finally {
      await target.close();
    }
    io.err(`task ${source.name} is left as it was. Go on with: logbook run --store ${record.log} "MESSAGE"`);
    return EXIT.ok;
  } finally {
    await log.close();
  }
}

/** The copied points' checkpoints, into the new worktree's store: a restore to them works there. */
async function keepCopiedCheckpoints(
  io: CliIo,
  from: readonly GitCheckpointStore[],
  into: GitCheckpointStore,
  conversationId: string,
  at: { events: readonly Event[]; eventId: string },
): Promise<void> {
  try {
    const missing = await copyCheckpoints(
      from.map((s) => s.storeDir),
      into,
      conversationId,
      checkpointsToCopy(at.events, at.eventId),
    );
    if (missing.length)
      io.err(
        `${missing.length} checkpoint(s) of the points copied are in no store found (released?): ` +
          'restoring to those points of the new task will say so.',
      );
  } catch (err) {
    io.err(`the copied points' checkpoints were not kept for the new task: ${(err as Error).message}`);
  }
}
