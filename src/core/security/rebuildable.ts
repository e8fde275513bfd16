// Folders a project's own install or build recreates. When no checkpoint holds one of them (it is
// ignored, or too large), a command that may write anywhere in the workspace still runs unasked:
// losing it costs a reinstall, not work. A command that names one to delete still asks.
import type { UnheldPath } from '../checkpoints/types';

/** Rebuildable whatever the reason no checkpoint holds them: dependency and tool caches. */
const CACHES: ReadonlySet<string> = new Set([
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.nox',
  '.gradle',
  '.dart_tool',
  '.parcel-cache',
  '.turbo',
  '.next',
  '.nuxt',
  '.svelte-kit',
  'target',
]);

/**
 * Build output: rebuildable only when left out for its size. Small enough, a checkpoint holds it,
 * so one left out for another reason (excluded by the user) is treated as the user's own.
 */
const BUILD_OUTPUT: ReadonlySet<string> = new Set(['dist', 'build', 'out', 'coverage']);

/** Whether the project's own install or build recreates this unheld path. */
export function isRebuildable(unheld: UnheldPath, roots: readonly string[]): boolean {
  const parts = relativeParts(unheld.path, roots);
  if (parts.some((p) => CACHES.has(p) || p.endsWith('.egg-info'))) return true;
  const sized = unheld.why === 'over-budget' || unheld.why === 'too-large';
  return sized && parts.some((p) => BUILD_OUTPUT.has(p));
}

/** The path's folder names below the workspace folder holding it (all of them when outside). */
function relativeParts(path: string, roots: readonly string[]): string[] {
  const root = roots.find((r) => path.startsWith(r.endsWith('/') ? r : `${r}/`));
  const rest = root === undefined ? path : path.slice(root.length);
  return rest.split('/').filter((p) => p !== '');
}
