// `logbook export-openhands`: a conversation into the OpenHands SDK layout, one file per event.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  conversationEventCodec,
  openHandsEventCodec,
  type StoredConversationEvent,
} from '../../../core/agent/event-codec';
import { sdkExportNoteLines } from '../../../core/events/openhands-sdk-export';
import { ORIGINAL_RECORDS, SdkExportPipeline } from '../../../core/agent/sdk-export-pipeline';
import { sdkBaseState } from '../../../core/agent/openhands-base-state';
import { OriginalRecordsWriter } from '../../../core/agent/original-records';
import { llmSecrets, SecretRedactor } from '../../../core/secrets';
import { writeFileDurable } from '../../../core/log/durable-file';
import {
  describeLostEvents,
  type EventStore,
  EventStoreError,
  isCorruptRecord,
  OpenHandsDirStore,
} from '../../../core/log';
import { deriveState } from '../../../core/state';
import { EXPORTED_SIGNATURES } from '../../../core/agent/import-openhands';
import { isWorkspaceOnlyEvent } from '../../../core/checkpoints/export';
import { readChainText } from '../../../core/signing/chain';
import { expectPositionals, parseCommandArgs } from './args';
import {
  assertConversationDir,
  assertFreshDir,
  conversationId,
  IMPORTED_BASE_STATE,
  openReadOnly,
  readEvents,
  resolvePath,
} from './conversation-dir';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import { ImageStore } from '../../../core/attachments/image-store';
import { inlineImages } from '../../../core/attachments/inline-images';
import type { CliIo } from './io';
import { readSessionInfo } from './session-file';
import { llmVariable } from '../../../core/llm/environment-names';

export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('export-openhands', argv, {});
  if (values.help) {
    io.out(COMMAND_HELP['export-openhands']);
    return EXIT.ok;
  }
  const [convArg, dirArg] = expectPositionals('export-openhands', positionals, ['CONV_DIR', 'DIR']);
  const from = resolvePath(io, convArg!);
  const to = resolvePath(io, dirArg!);
  assertConversationDir(from);
  assertFreshDir(to, 'The target');

  const source = await openReadOnly(from);
  const lost = source.lostOnOpen;
  if (lost) {
    // An export is read by others as the whole conversation: leaving out what the log lost, with
    // exit 0, would pass a hole on as a complete record. The loss must be accepted (and so
    // recorded in the log, where the export carries it) first.
    await source.close();
    throw new EventStoreError('LOST_DATA', `Not exported: ${describeLostEvents(lost)}.`);
  }
  const created = !existsSync(to);
  mkdirSync(to, { recursive: true });
  let count: number;
  let logCount: number;
  let notes: string[];
  // Events are redacted as they are appended; this also covers logs recorded before that was so.
  const redactor = new SecretRedactor(
    llmSecrets({
      apiKey: llmVariable(io.env, 'apiKey')?.value ?? '',
      baseUrl: llmVariable(io.env, 'baseUrl')?.value,
    }),
  );
  try {
    const target = await OpenHandsDirStore.open<StoredConversationEvent>(to, {
      codec: openHandsEventCodec,
    });
    try {
      ({ count, logCount, notes } = await copyForOpenHands(
        source,
        target,
        join(to, ORIGINAL_RECORDS),
        redactor,
        new ImageStore(from),
      ));
    } finally {
      await target.close();
    }
    writeFileDurable(join(to, 'base_state.json'), await baseState(from, to, source, io, redactor));
    // The signatures travel beside the OpenHands files, which OpenHands does not read; an import
    // puts them back.
    const signatures = readChainText(from);
    if (signatures !== null) writeFileDurable(join(to, EXPORTED_SIGNATURES), signatures);
  } catch (err) {
    if (created) rmSync(to, { recursive: true, force: true });
    throw err;
  } finally {
    await source.close();
  }
  // `show` counts the log's events: say where the difference went.
  const differs = count === logCount ? '' : ` (the log holds ${logCount}, as logbook show counts them)`;
  io.out(`Exported ${count} event${count === 1 ? '' : 's'} to ${to}${differs}`);
  for (const line of notes) io.out(`  ${line}`);
  return EXIT.ok;
}

/**
 * Copies every event as the OpenHands SDK writes it (core/agent/sdk-export-pipeline.ts). A record
 * the export changes is kept as stored, beside the files, so an import can give it back signed;
 * not when it holds a secret the export redacts, which must not leave the machine.
 */
async function copyForOpenHands(
  from: EventStore<StoredConversationEvent>,
  to: EventStore<StoredConversationEvent>,
  originals: string,
  redactor: SecretRedactor,
  images: ImageStore,
): Promise<{ count: number; logCount: number; notes: string[] }> {
  const pipeline = new SdkExportPipeline();
  const kept = new OriginalRecordsWriter();
  /** Checkpoint records left out, by key: they name a store on this machine. */
  const workspaceOnly: Record<string, number> = {};
  let n = 0;
  let i = 0;
  for await (const e of from.iterate(0)) {
    if (isCorruptRecord(e))
      throw new EventStoreError('CORRUPT', `record ${i} is unreadable (${e.reason}); fix or skip it first`);
    const record = conversationEventCodec.encode(e);
    const written: { event: object; encoded: string }[] = [];
    if (isWorkspaceOnlyEvent(e)) {
      const key = (e as { key: string }).key;
      workspaceOnly[key] = (workspaceOnly[key] ?? 0) + 1;
    }
    for (const event of pipeline.convert(e)) {
      // OpenHands sends image_urls as they are: stored images go inline, as data URLs.
      const whole = await inlineImages(event, (url) => images.dataUrl(url));
      const out = redactor.redactValue(whole) as StoredConversationEvent;
      await to.append(out);
      written.push({ event: out, encoded: openHandsEventCodec.encode(out) });
      n++;
    }
    // A record holding a secret the export redacted is not kept: it must not leave the machine.
    if (JSON.stringify(redactor.redactValue(e)) === JSON.stringify(e))
      kept.add(i, record, written, (x: object) =>
        conversationEventCodec.encode(x as StoredConversationEvent),
      );
    else kept.asExported(i);
    i++;
  }
  await to.flush();
  const text = kept.text();
  if (text !== null) writeFileDurable(originals, text);
  return {
    count: n,
    logCount: i,
    notes: [...workspaceOnlyNote(workspaceOnly), ...sdkExportNoteLines(pipeline.sdk.notes)],
  };
}

function workspaceOnlyNote(byKey: Record<string, number>): string[] {
  const total = Object.values(byKey).reduce((a, b) => a + b, 0);
  if (total === 0) return [];
  const kinds = Object.entries(byKey)
    .map(([key, n]) => `${n} ${key}`)
    .join(', ');
  return [
    `left out ${total} workspace checkpoint record${total === 1 ? '' : 's'} (${kinds}): they name ` +
      "files in this machine's checkpoint store, which OpenHands has no use for; kept in the Logbook log",
  ];
}

/**
 * The imported base_state.json byte for byte; otherwise one the SDK can resume from, with what the
 * log and session.json know (core/agent/openhands-base-state.ts).
 */
async function baseState(
  from: string,
  to: string,
  source: Awaited<ReturnType<typeof openReadOnly>>,
  io: CliIo,
  redactor: SecretRedactor,
): Promise<string> {
  const imported = join(from, IMPORTED_BASE_STATE);
  if (existsSync(imported)) return readFileSync(imported, 'utf8');
  const { events } = await readEvents(source);
  const state = deriveState(events);
  const session = readSessionInfo(from);
  const prompt = events.find((e) => e.kind === 'SystemPromptEvent');
  const toolNames = (prompt?.tools ?? []).map((t) => toolName(t as Record<string, unknown>));
  const value = sdkBaseState({
    id: conversationId(from),
    workspace: session?.workspace ?? null,
    persistenceDir: to,
    maxIterations: session?.max_iterations ?? null,
    confirmation: session?.confirmation ?? 'never',
    model: state.metrics.byUsage.agent?.model ?? session?.model ?? null,
    baseUrl: llmVariable(io.env, 'baseUrl')?.value ?? session?.base_url ?? null,
    toolNames,
    state,
  });
  return JSON.stringify(redactor.redactValue(value), null, 2) + '\n';
}

/** A recorded tool definition's name, in Logbook's form or the SDK's. */
function toolName(tool: Record<string, unknown>): string {
  const fn = tool.function as { name?: unknown } | undefined;
  const name = fn?.name ?? tool.title;
  return typeof name === 'string' ? name : '';
}
