#!/usr/bin/env node
// The quick start must leave a clone clean: clones the committed tree into a temporary folder,
// runs `npm install` there and fails if that changed any tracked file (npm rewrites
// package-lock.json when it disagrees with package.json).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'logbook-clone-'));
try {
  const clone = join(dir, 'logbook');
  execFileSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], {
    cwd: clone,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const changed = execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8' });
  if (changed.trim()) {
    const diff = execFileSync('git', ['diff', '--stat'], { cwd: clone, encoding: 'utf8' });
    console.error(`npm install on a fresh clone changed tracked files:\n${changed}${diff}`);
    process.exitCode = 1;
  } else {
    console.log('fresh clone: npm install leaves git status clean');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
