// `logbook export-openhands`: a conversation into the OpenHands SDK layout, one file per event.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openHandsEventCodec, type StoredConversationEvent } from '../../../core/agent/event-codec';
import { ObservationRefResolver } from '../../../core/events';
import { llmSecrets, SecretRedactor } from '../../../core/secrets';
import { writeFileDurable } from '../../../core/log/durable-file';
import { type EventStore, EventStoreError, isCorruptRecord, OpenHandsDirStore } from '../../../core/log';
import { deriveState } from '../../../core/state';
import { EXPORTED_SIGNATURES } from '../../../core/agent/import-openhands';
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
import { WorkspaceOnlyEvents } from '../../../core/checkpoints/export';

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
  const created = !existsSync(to);
  mkdirSync(to, { recursive: true });
  let count: number;
  try {
    const target = await OpenHandsDirStore.open<StoredConversationEvent>(to, {
      codec: openHandsEventCodec,
    });
    try {
      // Events are redacted as they are appended; this also covers logs recorded before that was so.
      const redactor = new SecretRedactor(
        llmSecrets({ apiKey: io.env.OPENAI_API_KEY ?? '', baseUrl: io.env.OPENAI_BASE_URL }),
      );
      count = await copyForOpenHands(source, target, redactor, new ImageStore(from));
    } finally {
      await target.close();
    }
    writeFileDurable(join(to, 'base_state.json'), await baseState(from, to, source));
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
  io.out(`Exported ${count} event${count === 1 ? '' : 's'} to ${to}`);
  return EXIT.ok;
}

/** Copies every event as OpenHands writes it: an observation that refers to its action's text gets it back. */
async function copyForOpenHands(
  from: EventStore<StoredConversationEvent>,
  to: EventStore<StoredConversationEvent>,
  redactor: SecretRedactor,
  images: ImageStore,
): Promise<number> {
  const refs = new ObservationRefResolver();
  const workspaceOnly = new WorkspaceOnlyEvents();
  let n = 0;
  let i = 0;
  for await (const e of from.iterate(0)) {
    if (isCorruptRecord(e))
      throw new EventStoreError('CORRUPT', `record ${i} is unreadable (${e.reason}); fix or skip it first`);
    i++;
    const kept = workspaceOnly.keep(e);
    if (!kept) continue;
    // OpenHands sends image_urls as they are: stored images go inline, as data URLs.
    const whole = await inlineImages(refs.resolve(kept), (url) => images.dataUrl(url));
    await to.append(redactor.redactValue(whole) as StoredConversationEvent);
    n++;
  }
  await to.flush();
  return n;
}

/**
 * The imported base_state.json byte for byte; otherwise a minimal one with what the log knows.
 * The SDK needs its agent configuration to resume a conversation, which Logbook does not have, so
 * a synthesized state is for reading and replaying the events, not for resuming in OpenHands.
 */
async function baseState(
  from: string,
  to: string,
  source: Awaited<ReturnType<typeof openReadOnly>>,
): Promise<string> {
  const imported = join(from, IMPORTED_BASE_STATE);
  if (existsSync(imported)) return readFileSync(imported, 'utf8');
  const { events } = await readEvents(source);
  const state = deriveState(events);
  const session = readSessionInfo(from);
  const policy = { never: 'NeverConfirm', always: 'AlwaysConfirm', risky: 'ConfirmRisky' } as const;
  return (
    JSON.stringify(
      {
        id: conversationId(from),
        workspace: { working_dir: session?.workspace ?? null, kind: 'LocalWorkspace' },
        persistence_dir: to,
        max_iterations: session?.max_iterations ?? 100,
        stuck_detection: true,
        execution_status: state.status,
        confirmation_policy: { kind: policy[session?.confirmation ?? 'never'] },
        activated_knowledge_skills: state.activatedSkills,
        blocked_actions: {},
        blocked_messages: {},
        stats: { usage_to_metrics: {} },
        secret_registry: { secret_sources: {} },
        agent_state: {},
      },
      null,
      2,
    ) + '\n'
  );
}
