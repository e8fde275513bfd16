// Shared test helpers for the log suites: temp dirs, realistic events, byte surgery on segments.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type StoredEvent } from '../../../src/core/log';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
/** A real conversation recorded by the OpenHands SDK (its event files, one JSON per line, and base_state.json). */
export const fixturesDir = path.join(repoRoot, 'test', 'fixtures', 'openhands');

const made: string[] = [];

export function tmpDir(tag = 'log'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `logbook-${tag}-`));
  made.push(d);
  return d;
}

export function cleanupTmp(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export interface TestEvent extends StoredEvent {
  text?: string;
}

export function ev(id: string, extra: Partial<TestEvent> = {}): TestEvent {
  return { id, kind: 'TestEvent', ...extra };
}

export function uuid(): string {
  return crypto.randomUUID();
}

export function segmentPath(dir: string, no = 1): string {
  return path.join(dir, 'segments', `${String(no).padStart(6, '0')}.log`);
}

/** Byte offsets of every line start in a segment file. */
export function lineOffsets(file: string): number[] {
  const buf = fs.readFileSync(file);
  const out: number[] = [];
  let p = 0;
  while (p < buf.length) {
    out.push(p);
    const nl = buf.indexOf(0x0a, p);
    if (nl < 0) break;
    p = nl + 1;
  }
  return out;
}

/** Overwrites one byte (in the json part of a line, so framing stays and only the crc fails). */
export function flipByteInLine(file: string, lineStart: number, intoLine = 40): void {
  const fd = fs.openSync(file, 'r+');
  try {
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, lineStart + intoLine);
    b[0] = b[0] === 0x41 ? 0x42 : 0x41;
    fs.writeSync(fd, b, 0, 1, lineStart + intoLine);
  } finally {
    fs.closeSync(fd);
  }
}
