// What a theme screenshot is looked at for, checked: axe-core's color-contrast rule run inside the
// chat's own frame, with the workbench's real theme variables. Evaluated through the DevTools
// protocol, which the webview's CSP does not govern, so no script tag is needed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { repoRoot } from '../../../scripts/code-server/instance.mjs';

const AXE = readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

interface AxeResult {
  violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[];
}

/**
 * Each element of the chat whose text lacks contrast in the current theme, as "selector: why".
 * The chat's page is transparent: the workbench paints `behind` (a theme colour variable, the side
 * bar's by default) under the frame, which axe cannot see across it; the page is painted with that
 * same colour first, so axe measures against what the user sees.
 */
export async function contrastViolations(
  chat: FrameLocator,
  behind = '--vscode-sideBar-background',
): Promise<string[]> {
  const body = await chat.locator('body').elementHandle({ timeout: 15_000 });
  const frame = await body?.ownerFrame();
  if (!frame) throw new Error('the chat frame could not be reached');
  const painted = await frame.evaluate(
    `(() => { const root = document.documentElement; const c = getComputedStyle(root).getPropertyValue(${JSON.stringify(behind)}).trim(); if (c) root.style.backgroundColor = c; return c; })()`,
  );
  if (!painted) throw new Error(`the theme gives no ${behind}`);
  await frame.evaluate(AXE);
  const result = (await frame.evaluate(
    'axe.run(document, { runOnly: ["color-contrast"], resultTypes: ["violations"] })',
  )) as AxeResult;
  return result.violations.flatMap((v) =>
    v.nodes.map(
      (n) => `${n.target.join(' ')}: ${(n.failureSummary ?? v.id).replace(/\s+/g, ' ').slice(0, 240)}`,
    ),
  );
}
