// Headless Debian Chromium driven by playwright-core, with the flags this offline machine needs
// and a throwaway profile, so a run never touches the user's browser or the network.
import { chromium } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killTree, descendants } from './instance.mjs';

export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p) => p && existsSync(p));
  if (!found)
    throw new Error('Chromium not found: install the Debian package "chromium" (or set CHROMIUM_PATH).');
  return found;
}

export async function launchBrowser({ profileDir, viewport = { width: 1400, height: 900 } } = {}) {
  const dir = profileDir ?? mkdtempSync(join(tmpdir(), 'logbook-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath(),
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const browserPid = findBrowserPid(dir);
  return {
    context,
    profileDir: dir,
    async close() {
      await context.close().catch(() => {});
      await new Promise((r) => setTimeout(r, 500));
      // Chromium's crash handler can outlive the browser: end whatever still holds our profile.
      if (browserPid) await killTree(browserPid);
      for (const pid of processesMentioning(dir)) await killTree(pid);
      // A profile made here is throwaway; one the caller passed is theirs to keep.
      if (!profileDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function processesMentioning(text) {
  return descendants(1).filter((pid) => {
    try {
      return readCmdline(pid).includes(text);
    } catch {
      return false;
    }
  });
}

function findBrowserPid(profileDir) {
  return processesMentioning(profileDir)[0];
}

import { readFileSync } from 'node:fs';
function readCmdline(pid) {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
}
