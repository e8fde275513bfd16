// The activation bench's VS Code rows: each build is installed as the extension under development
// in a fresh code-server window (headless Chromium, as the host tests run it), activated there, and
// VS Code's own record of the activation read back (vscode-timing-entry.cjs): the times the
// workbench's Startup Performance and Running Extensions views show, measured by its extension host.
import fs from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import { launchBrowser } from '../../scripts/code-server/browser.mjs';
import { repoRoot, startCodeServer } from '../../scripts/code-server/instance.mjs';

/** VS Code's activation times of one window, in ms (ExtensionActivationTimes). */
export interface VsCodeActivation {
  /** reading and running the extension's main module */
  loadCode: number;
  /** the call of activate(), until it returned */
  callActivate: number;
  /** until the promise activate() returned settled */
  finishActivate: number;
}

const WINDOW_TIMEOUT_MS = 180_000;
/** What the extension host is given besides the build: the manifest and what it names. */
const MANIFEST_FILES = ['package.json', 'package.nls.json', 'package.nls.zh-cn.json', 'l10n', 'media'];

/** An extension folder of `dist` (a build's output folder), as a window installs it. */
export function extensionFolder(dist: string, at: string): string {
  fs.mkdirSync(at, { recursive: true });
  for (const f of MANIFEST_FILES)
    if (fs.existsSync(path.join(repoRoot, f)))
      fs.cpSync(path.join(repoRoot, f), path.join(at, f), { recursive: true });
  fs.cpSync(dist, path.join(at, 'dist'), { recursive: true });
  return at;
}

/** One fresh window with `extension` under development: VS Code's times of its activation. */
export async function vscodeActivation(extension: string, work: string): Promise<VsCodeActivation> {
  const runDir = fs.mkdtempSync(path.join(work, 'cs-'));
  const server = await startCodeServer({ runDir });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    let reported: string | undefined;
    const lines: string[] = [];
    const done = new Promise<unknown>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: unknown) => resolve(code));
    });
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
      const line = format(...args);
      lines.push(line);
      const m = /LOGBOOK_VSCODE_ACTIVATION (.*)$/.exec(line);
      if (m) reported = m[1];
    });
    const entry = path.join(__dirname, 'vscode-timing-entry.cjs');
    await page.goto(
      server.url([
        ['extensionDevelopmentPath', server.remoteUri(extension)],
        ['extensionTestsPath', server.remoteUri(entry)],
        ['skipWelcome', 'true'],
      ]),
    );
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), WINDOW_TIMEOUT_MS).unref());
    const code = await Promise.race([done, timeout]);
    if (code !== 0 || reported === undefined)
      throw new Error(
        `the window did not report VS Code's activation times (exit: ${String(code)}):\n${lines.slice(-20).join('\n')}`,
      );
    return readRow(JSON.parse(reported) as { found: boolean; header: string[]; row: string[] | null });
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/** Logbook's row of "Extension Activation Stats", by the names of its columns. */
function readRow(r: { found: boolean; header: string[]; row: string[] | null }): VsCodeActivation {
  if (!r.found || !r.row)
    throw new Error(`Startup Performance lists no activation of Logbook: ${JSON.stringify(r)}`);
  const cell = (name: string) => {
    const i = r.header.indexOf(name);
    const v = Number(r.row![i]);
    if (i < 0 || !Number.isFinite(v)) throw new Error(`no "${name}" in ${JSON.stringify(r)}`);
    return v;
  };
  return {
    loadCode: cell('Load Code'),
    callActivate: cell('Call Activate'),
    finishActivate: cell('Finish Activate'),
  };
}
