// What `npm start` opens: code-server on a fresh copy of the sample workspace with the extension
// as built here installed (linked, so a rebuild shows after a reload), opening on Logbook's chat,
// and, when no model is configured, the local demo model answering it. Its URL is the server's
// root. Shared with the e2e test that starts it twice in a row.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer, repoRoot } from './instance.mjs';

/**
 * @param {{ runDir: string, port?: number, demo: boolean, settings?: Record<string, unknown>, env?: Record<string, string>, log?: (line: string) => void, quietInstall?: boolean, onStep?: (step: string) => void }} opts
 */
export async function startSampleSession(opts) {
  // Nothing carries over from the last run: workspace, conversations and window state start fresh.
  rmSync(opts.runDir, { recursive: true, force: true });
  const settings = { ...opts.settings };
  if (opts.demo) opts.onStep?.('demo');
  const demo = opts.demo ? await startDemoModel() : undefined;
  // The window finds the demo in its environment: nothing is written to the user's settings.
  const env = { ...opts.env, ...(demo ? { LOGBOOK_DEMO_URL: demo.baseUrl } : {}) };
  let server;
  try {
    opts.onStep?.('code-server');
    server = await startCodeServer({
      runDir: opts.runDir,
      port: opts.port,
      settings,
      env,
      log: opts.log,
      quietInstall: opts.quietInstall,
      openFolder: true,
      linkExtensions: [repoRoot],
      installExtensions: [join(repoRoot, 'scripts', 'code-server', 'open-chat-on-start')],
    });
  } catch (err) {
    demo?.child.kill();
    throw err;
  }
  return {
    server,
    /** The workspace is code-server's folder: its root opens it. */
    url: `${server.base}/`,
    /** The same window with the folder spelled out. */
    longUrl: server.url(),
    async stop() {
      await server.stop();
      demo?.child.kill();
    },
  };
}

async function startDemoModel() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'test/support/demo-model/cli.ts')],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const baseUrl = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the demo model exited (${code}) before listening`)));
    child.stdout.on('data', (d) => {
      const m = /listening on (\S+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
  });
  return { child, baseUrl };
}
