// The open and storage benchmarks' data: the generated conversation (or the real sample events,
// cycled) written in the OpenHands layout, and the `logbook` CLI bundled as it ships, to import it
// and show it as a user would.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { serializeEvent } from '../src/core/events';
import { eventFileName } from '../src/core/log';
import { generateConversation } from './conversation-generator';
import {
  lazyBundleBuilds,
  mainBundlePlugins,
  NODE_PLUGINS,
  REQUIRE_ON_IMPORT,
} from '../scripts/lazy-bundles.mjs';

const repoRoot = path.resolve(__dirname, '..');

/**
 * dist/cli.js as `npm run package` builds it (minified, no source map), with the bundles it loads
 * on first use (scripts/lazy-bundles.mjs), into `dir`; `readable` keeps the functions' names, for a
 * profile. `eager` builds it as one bundle that holds every command and stack, as it was before
 * commands and stacks loaded on first use: the baseline of the lazy load's bench rows.
 */
export async function bundleCli(
  dir: string,
  opts: { readable?: boolean; eager?: boolean } = {},
): Promise<string> {
  const outfile = path.join(dir, 'cli.js');
  // The plugins esbuild.mjs builds with (scripts/lazy-bundles.mjs), so the benches run the CLI that ships.
  const options = {
    minify: !opts.readable,
    legalComments: 'none' as const,
    logLevel: 'warning' as const,
    plugins: NODE_PLUGINS,
  };
  await build({
    ...options,
    entryPoints: [path.join(repoRoot, 'src/host/node/cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    supported: REQUIRE_ON_IMPORT,
    plugins: mainBundlePlugins(opts.eager),
  });
  if (!opts.eager) await Promise.all(lazyBundleBuilds(dir, options).map(build));
  return outfile;
}

/** The real OpenHands sample events (test/fixtures/openhands/real-events.jsonl). */
export function sampleEvents(): Record<string, unknown>[] {
  return fs
    .readFileSync(path.join(repoRoot, 'test/fixtures/openhands/real-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** `n` sample events, cycled with fresh ids, in the OpenHands layout; their JSON bytes. */
export function writeSampleLayout(dir: string, n: number): number {
  fs.mkdirSync(path.join(dir, 'events'), { recursive: true });
  fs.copyFileSync(
    path.join(repoRoot, 'test/fixtures/openhands/base_state.json'),
    path.join(dir, 'base_state.json'),
  );
  const sample = sampleEvents();
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const json = JSON.stringify({ ...sample[i % sample.length], id });
    bytes += Buffer.byteLength(json);
    fs.writeFileSync(path.join(dir, 'events', eventFileName(i, id)), json);
  }
  return bytes;
}

export interface OpenHandsLayout {
  dir: string;
  count: number;
  bytes: number;
  /** Index of the newest event the chat shows as a row of its own (a message, an action, a condensation). */
  lastRowSeq: number;
  /** JSON bytes of each event, in order. */
  sizes: number[];
}

const OWN_ROW = new Set(['MessageEvent', 'ActionEvent', 'Condensation', 'SystemPromptEvent']);

/** The index of the newest event of these kinds that the chat shows as a row of its own. */
export function lastRowSeq(kinds: readonly string[]): number {
  return kinds.findLastIndex((k) => OWN_ROW.has(k));
}

/** `n` events of the benchmarks' conversation as the OpenHands SDK lays one out, with a base_state.json. */
export async function writeOpenHandsLayout(dir: string, n: number, seed: number): Promise<OpenHandsLayout> {
  fs.mkdirSync(path.join(dir, 'events'), { recursive: true });
  fs.copyFileSync(
    path.join(repoRoot, 'test', 'fixtures', 'openhands', 'base_state.json'),
    path.join(dir, 'base_state.json'),
  );
  let bytes = 0;
  let lastRowSeq = -1;
  const sizes: number[] = [];
  await generateConversation(n, seed, 'bench-import', (e, i) => {
    const json = serializeEvent(e);
    sizes.push(Buffer.byteLength(json));
    bytes += sizes[i]!;
    if (OWN_ROW.has(e.kind)) lastRowSeq = i;
    fs.writeFileSync(path.join(dir, 'events', eventFileName(i, e.id)), json);
  });
  return { dir, count: n, bytes, lastRowSeq, sizes };
}

/** Runs `logbook import-openhands`; the wall time of the whole process in ms. */
export function importWithCli(cli: string, from: string, store: string): number {
  const t0 = performance.now();
  execFileSync(process.execPath, [cli, 'import-openhands', from, '--store', store], { stdio: 'pipe' });
  return performance.now() - t0;
}

/** A copy of an imported conversation without its snapshots: what an import wrote before it made them. */
export function copyWithoutSnapshots(store: string, to: string): string {
  fs.cpSync(store, to, { recursive: true });
  fs.rmSync(path.join(to, 'snapshots'), { recursive: true, force: true });
  return to;
}
