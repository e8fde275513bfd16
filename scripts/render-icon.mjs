#!/usr/bin/env node
// Renders the Marketplace icon (media/icon.png, 128x128) from assets/icon.svg in headless Chromium:
// the Marketplace takes no SVG icon.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './code-server/browser.mjs';
import { repoRoot } from './code-server/instance.mjs';

const size = 128;
const browser = await launchBrowser({ viewport: { width: size, height: size } });
try {
  const page = await browser.context.newPage();
  const svg = readFileSync(join(repoRoot, 'assets', 'icon.svg'), 'utf8');
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.screenshot({
    path: join(repoRoot, 'media', 'icon.png'),
    omitBackground: true,
    clip: { x: 0, y: 0, width: size, height: size },
  });
} finally {
  await browser.close();
}
