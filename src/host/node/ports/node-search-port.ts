// SearchPort on the local disk: ripgrep when it is on PATH (fast, honours .gitignore), otherwise a
// JavaScript walk that skips hidden entries and node_modules (but does not read .gitignore).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { SearchPort } from '../../../core/tools/ports';
import { globMatcher } from './glob-pattern';

export interface NodeSearchPortOptions {
  /** The rg executable, or false to always use the JavaScript walk (default 'rg', if it runs). */
  rgPath?: string | false;
}

type GrepMatch = { path: string; line: number; text: string };
type GrepOptions = { cwd: string; include?: string; limit: number; ignoreCase?: boolean };

const SKIPPED_DIRS = new Set(['node_modules']);
const MAX_GREP_FILE_BYTES = 4 * 1024 * 1024;

export class NodeSearchPort implements SearchPort {
  private rgAvailable: Promise<boolean> | undefined;

  constructor(private readonly options: NodeSearchPortOptions = {}) {}

  async glob(pattern: string, opts: { cwd: string; limit: number }): Promise<string[]> {
    const cwd = resolve(opts.cwd);
    if (await this.useRg()) {
      const args = ['--files', '--sort', 'path', '--glob', pattern, ...nodeModulesExclusion(pattern)];
      const lines = await this.rgLines(args, cwd, opts.limit);
      if (lines.ok) return lines.lines.map((line) => resolve(cwd, line));
    }
    const matches = globMatcher(pattern);
    const found: string[] = [];
    for await (const file of walkFiles(cwd)) {
      if (matches(file)) found.push(resolve(cwd, file));
      if (found.length >= opts.limit) break;
    }
    return found;
  }

  async grep(pattern: string, opts: GrepOptions): Promise<GrepMatch[]> {
    const target = resolve(opts.cwd);
    const isFile = (await stat(target)).isFile();
    const cwd = isFile ? dirname(target) : target;
    if (await this.useRg()) {
      const args = ['--json', '--sort', 'path', ...(opts.ignoreCase ? ['-i'] : [])];
      if (opts.include) args.push('--glob', opts.include);
      if (!isFile) args.push(...nodeModulesExclusion(opts.include ?? ''));
      args.push('-e', pattern, '--', isFile ? basename(target) : '.');
      const result = await this.rgLines(args, cwd, opts.limit, (line) => line.startsWith('{"type":"match"'));
      if (result.ok) return result.lines.flatMap((line) => parseRgMatch(line, cwd));
      // rg rejected the pattern: its dialect lacks look-around and backreferences, JavaScript's has them.
    }
    return grepByWalking(pattern, target, isFile, opts);
  }

  private useRg(): Promise<boolean> {
    if (this.options.rgPath === false) return Promise.resolve(false);
    this.rgAvailable ??= new Promise((done) => {
      const child = spawn(this.rgPath(), ['--version'], { stdio: 'ignore' });
      child.on('error', () => done(false));
      child.on('exit', (code) => done(code === 0));
    });
    return this.rgAvailable;
  }

  private rgPath(): string {
    return this.options.rgPath || 'rg';
  }

  /**
   * Runs rg and collects the stdout lines `keep` accepts until there are `limit`, then stops it.
   * Not ok when rg fails without output (e.g. a pattern it cannot compile).
   */
  private rgLines(
    args: string[],
    cwd: string,
    limit: number,
    keep: (line: string) => boolean = () => true,
  ): Promise<{ ok: true; lines: string[] } | { ok: false }> {
    return new Promise((done) => {
      const child = spawn(this.rgPath(), args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
      const lines: string[] = [];
      let stopped = false;
      const reader = createInterface({ input: child.stdout });
      reader.on('line', (line) => {
        if (stopped || !keep(line)) return;
        lines.push(line);
        if (lines.length >= limit) {
          stopped = true;
          child.kill();
        }
      });
      child.on('error', () => done({ ok: false }));
      child.on('close', (code) => {
        // 0: found, 1: nothing found, 2: an error (files it could not read still leave results).
        if (stopped || code === 0 || code === 1 || lines.length > 0) done({ ok: true, lines });
        else done({ ok: false });
      });
    });
  }
}

/** Keeps node_modules out even when it is not git-ignored, unless the pattern asks for it. */
function nodeModulesExclusion(pattern: string): string[] {
  return pattern.includes('node_modules') ? [] : ['--glob', '!node_modules'];
}

function parseRgMatch(line: string, cwd: string): GrepMatch[] {
  try {
    const message = JSON.parse(line) as {
      type: string;
      data: { path?: { text?: string }; lines?: { text?: string }; line_number?: number };
    };
    const { path, lines, line_number } = message.data;
    if (message.type !== 'match' || path?.text === undefined || lines?.text === undefined || !line_number)
      return [];
    return [{ path: resolve(cwd, path.text), line: line_number, text: lines.text.replace(/\r?\n$/, '') }];
  } catch {
    return [];
  }
}

/** Relative paths ('/'-separated) of the files under `root`, in sorted order, hidden ones left out. */
async function* walkFiles(root: string, prefix = ''): AsyncGenerator<string> {
  let entries;
  try {
    entries = await readdir(join(root, prefix), { withFileTypes: true });
  } catch {
    return; // unreadable directory
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* walkFiles(root, path);
    } else if (entry.isFile()) {
      yield path;
    }
  }
}

async function grepByWalking(
  pattern: string,
  target: string,
  isFile: boolean,
  opts: GrepOptions,
): Promise<GrepMatch[]> {
  const regex = new RegExp(pattern, opts.ignoreCase ? 'i' : '');
  const include = opts.include ? globMatcher(opts.include) : () => true;
  const found: GrepMatch[] = [];
  const files = isFile ? singleFile(target) : walkFiles(target);
  for await (const file of files) {
    if (!include(file)) continue;
    const path = isFile ? target : join(target, file);
    const text = await readTextFile(path);
    if (text === undefined) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] as string).replace(/\r$/, '');
      if (!regex.test(line)) continue;
      found.push({ path, line: i + 1, text: line });
      if (found.length >= opts.limit) return found;
    }
  }
  return found;
}

async function* singleFile(path: string): AsyncGenerator<string> {
  yield relative(dirname(path), path);
}

/** The file's text, or undefined for binary and very large files (as rg skips binaries). */
async function readTextFile(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    if (size > MAX_GREP_FILE_BYTES) return undefined;
    const buffer = await handle.readFile();
    if (buffer.subarray(0, 8192).includes(0)) return undefined;
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
