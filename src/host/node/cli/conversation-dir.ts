// Finding, checking and reading conversation directories (segment logs and OpenHands layouts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { conversationEventCodecWith, type StoredConversationEvent } from '../../../core/agent/event-codec';
import { IMPORTED_BASE_STATE } from '../../../core/agent/import-openhands';
import type { Event } from '../../../core/events';
import { detectBackend, type EventStore, isCorruptRecord, openEventStore } from '../../../core/log';
import { payloadSchemasForReading } from '../session/read-payloads';
import type { CliIo } from './io';
import { readSessionInfo } from './session-file';

/** base_state.json of an imported OpenHands conversation, kept verbatim for export. */
export { IMPORTED_BASE_STATE };

export function resolvePath(io: CliIo, p: string): string {
  return resolve(io.cwd, p);
}

/** Throws unless `dir` holds a conversation log of either layout. */
export function assertConversationDir(dir: string): void {
  if (!isDirectory(dir)) throw new Error(`${dir} is not a directory.`);
  const has = (p: string): boolean => existsSync(join(dir, p));
  // meta.json alone: a segment log whose segments are gone (show reports them as lost).
  if (!has('segments') && !has('meta.json') && !has('events') && !has('base_state.json')) {
    throw new Error(`${dir} holds no conversation (no segments/ or events/ folder).`);
  }
}

/** Whether `dir` holds any file of a segment log (so a missing log is not taken for a new one). */
export function hasSegmentLog(dir: string): boolean {
  const has = (p: string): boolean => existsSync(join(dir, p));
  let segments: string[] = [];
  try {
    segments = readdirSync(join(dir, 'segments'));
  } catch {
    // no segments folder
  }
  return segments.some((n) => n.endsWith('.log')) || has('meta.json');
}

/** Throws unless `dir` is absent or an empty directory: commands that create one never merge. */
export function assertFreshDir(dir: string, what: string): void {
  if (!existsSync(dir)) return;
  if (!isDirectory(dir)) throw new Error(`${what} ${dir} exists and is not a directory.`);
  if (readdirSync(dir).length > 0) throw new Error(`${what} ${dir} is not empty.`);
}

export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Opens without taking the writer lock, so a running agent keeps writing undisturbed. A reader
 * (show, export, replay) has no conversation's tool list: payloads are checked against the
 * built-in and MCP tools' schemas (read-payloads.ts), so a hand-edited payload reads as a corrupt record, never as an action.
 */
export function openReadOnly(dir: string): Promise<EventStore<StoredConversationEvent>> {
  return openEventStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodecWith(payloadSchemasForReading()),
    readOnly: true,
  });
}

/** The readable events of the log, and each one's index in it (unreadable records hold theirs). */
export async function readEvents(
  store: EventStore<StoredConversationEvent>,
): Promise<{ events: Event[]; indices: number[]; corrupt: number }> {
  const events: Event[] = [];
  const indices: number[] = [];
  let corrupt = 0;
  let index = 0;
  for await (const slot of store.iterate(0)) {
    if (isCorruptRecord(slot)) corrupt++;
    else {
      events.push(slot as Event);
      indices.push(index);
    }
    index++;
  }
  return { events, indices, corrupt };
}

/** The id the CLI started it with, else the OpenHands id, else the directory's name. */
/**
 * The folder the agent works in: session.json's, else the working folder an OpenHands
 * base_state.json names (an imported conversation, or the SDK's own layout); null when neither says.
 */
export function conversationWorkspace(dir: string): string | null {
  const session = readSessionInfo(dir);
  if (session) return session.workspace;
  const ohFile = detectBackend(dir) === 'openhands' ? 'base_state.json' : IMPORTED_BASE_STATE;
  try {
    const state = JSON.parse(readFileSync(join(dir, ohFile), 'utf8')) as {
      workspace?: { working_dir?: unknown } | null;
    };
    const folder = state.workspace?.working_dir;
    if (typeof folder === 'string' && folder !== '') return folder;
  } catch {
    // no (readable) OpenHands state
  }
  return null;
}

export function conversationId(dir: string): string {
  const session = readSessionInfo(dir);
  if (session) return session.id;
  const ohFile = detectBackend(dir) === 'openhands' ? 'base_state.json' : IMPORTED_BASE_STATE;
  try {
    const id = (JSON.parse(readFileSync(join(dir, ohFile), 'utf8')) as { id?: unknown }).id;
    if (typeof id === 'string' && id !== '') return id;
  } catch {
    // no (readable) OpenHands state: fall back to the name
  }
  return basename(dir);
}
