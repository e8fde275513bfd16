// The OpenHands export contract, held on every conversation the CLI tests write: after each test,
// CliFixture exports each conversation it left (recorded by `run`, imported, forked...) with the
// real `export-openhands` command, in this process, and checks every exported event and its
// base_state.json against the OpenHands SDK's own schemas. A new event field that the SDK would
// refuse fails the test that first writes it.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportCommand } from '../../../src/host/node/cli/export-command';
import type { CliIo } from '../../../src/host/node/cli/io';
import { checkSdkFolder } from '../../support/openhands-sdk-schema';

/** Totals over the run, for the summary a test may print or assert. */
export const exportContractTotals = { conversations: 0, events: 0, skipped: 0 };

/** Segment-log conversations under `root` (a conversation's own folders are not searched). */
export function conversationDirs(root: string): string[] {
  if (!existsSync(root) || !statSync(root).isDirectory()) return [];
  if (existsSync(join(root, 'segments'))) return [root];
  const out: string[] = [];
  for (const name of readdirSync(root)) {
    const p = join(root, name);
    if (name !== 'node_modules' && isDir(p)) out.push(...conversationDirs(p));
  }
  return out;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Why an export of `dir` would not open in the OpenHands SDK, one line each; [] when it would. */
export async function exportProblems(dir: string): Promise<{ events: number; problems: string[] } | null> {
  const out = mkdtempSync(join(tmpdir(), 'logbook-export-contract-'));
  const target = join(out, 'export');
  const io: CliIo = {
    out: () => undefined,
    err: () => undefined,
    env: {},
    cwd: out,
    onInterrupt: () => () => undefined,
  };
  try {
    try {
      await exportCommand([dir, target], io);
    } catch (err) {
      // A log the export refuses on purpose (unreadable records, lost segments) has no export to check.
      if (refusedOnPurpose(err)) return null;
      throw err;
    }
    return checkSdkFolder(target);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function refusedOnPurpose(err: unknown): boolean {
  const message = (err as Error).message ?? '';
  return /unreadable|corrupt|lost|missing|damaged|holds no conversation/i.test(message);
}

/** Exports and checks every conversation under `roots`; throws naming each invalid event. */
export async function assertExportsValidate(roots: readonly string[]): Promise<void> {
  const failures: string[] = [];
  for (const root of roots) {
    for (const dir of conversationDirs(root)) {
      const r = await exportProblems(dir);
      if (!r) {
        exportContractTotals.skipped++;
        continue;
      }
      exportContractTotals.conversations++;
      exportContractTotals.events += r.events;
      for (const p of r.problems) failures.push(`${dir}: ${p}`);
    }
  }
  if (failures.length > 0) {
    throw new Error(
      `The OpenHands export of a conversation this test wrote does not validate against the SDK's schemas:\n` +
        failures.map((f) => `  ${f.slice(0, 600)}`).join('\n'),
    );
  }
}
