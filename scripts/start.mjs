#!/usr/bin/env node
// `npm start`: builds the extension and opens it in a real VS Code (code-server on 127.0.0.1) on
// a fresh copy of the sample workspace, on Logbook's chat. Prints one line per step and the short
// URL to open (`--verbose`: every step's output and the long URL too). With no model configured, a
// local demo model answers, so the extension can be tried without an API key.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from './code-server/instance.mjs';
import { startSampleSession } from './code-server/sample-session.mjs';
import { missingSystemPackages } from './code-server/system-packages.mjs';
import { install, isInstalled } from './code-server/install.mjs';

const port = Number(process.env.LOGBOOK_PORT ?? 8750);
// The CLI's names first, the OpenAI SDK's as fallbacks (src/core/llm/environment-names.ts).
const pick = (...names) => names.map((n) => process.env[n]?.trim()).find(Boolean);
const baseUrl = pick('LOGBOOK_BASE_URL', 'OPENAI_BASE_URL');
const model = pick('LOGBOOK_MODEL');
const useDemo = !pick('LOGBOOK_API_KEY', 'OPENAI_API_KEY') && !baseUrl;

const verbose = process.argv.includes('--verbose');

/** One line per step: its name when it starts, "done" and how long it took when the next starts. */
let current;
function step(text) {
  finish();
  const started = Date.now();
  process.stdout.write(`  ${text}…`);
  current = () => process.stdout.write(` done (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
function finish() {
  current?.();
  current = undefined;
}

// As root (in many containers) there is no sudo to ask, and no need.
const sudo = process.getuid?.() === 0 ? '' : 'sudo ';

// Said before the build, so a missing package is the first thing a new user reads.
const firstRun = !isInstalled();
const missing = firstRun ? missingSystemPackages() : [];
if (missing.length > 0) {
  console.error(
    `\nnpm start installs code-server once (into .vscode-test/) and builds its native modules,\n` +
      `which needs these system packages: ${missing.join(', ')}\n\n` +
      `  ${sudo}apt-get install ${missing.join(' ')}\n`,
  );
  process.exit(1);
}

// Not needed to start, but without bwrap the agent's commands run unsandboxed, each asking first.
let sandboxNote = '';
try {
  execFileSync('sh', ['-c', 'command -v bwrap'], { stdio: 'ignore' });
} catch {
  sandboxNote =
    "\nThe agent's commands will run without a sandbox (each asks first): bubblewrap is missing.\n" +
    `  ${sudo}apt-get install bubblewrap socat\n`;
}

// Before anything is built: a port another program (or another `npm start`) listens on.
const portTaken = await new Promise((resolve) => {
  const probe = createServer()
    .once('error', (err) => resolve(err.code === 'EADDRINUSE' || err.code === 'EACCES' ? err.code : false))
    .listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
});
if (portTaken) {
  console.error(
    `\nnpm start serves VS Code on 127.0.0.1:${port}, and that port is ${portTaken === 'EACCES' ? 'not allowed here' : 'in use (another npm start, or another program)'}.\n` +
      `Pick another port with LOGBOOK_PORT, for example:\n\n  LOGBOOK_PORT=${port + 1} npm start\n`,
  );
  process.exit(1);
}

console.log('Starting Logbook in VS Code (code-server):');
step('Building the extension');
execFileSync(process.execPath, [join(repoRoot, 'esbuild.mjs')], { stdio: 'inherit', cwd: repoRoot });

let session;
try {
  if (firstRun) {
    step(
      'Installing code-server into .vscode-test/ (first run only: 4 to 7 minutes on 2 cores, most of it compiling)',
    );
    install({ quiet: !verbose });
  }
  session = await startSampleSession({
    runDir: join(repoRoot, '.vscode-test', 'start'),
    port,
    demo: useDemo,
    quietInstall: !verbose,
    // The extension reads its endpoint and model from Settings; the key from the environment.
    settings: {
      ...(baseUrl && !useDemo ? { 'logbook.model.baseURL': baseUrl } : {}),
      ...(model && !useDemo ? { 'logbook.model.name': model } : {}),
    },
    onStep: (name) =>
      step(
        name === 'demo'
          ? 'Starting the demo model'
          : 'Starting VS Code on a fresh copy of the sample workspace',
      ),
    log: (line) => {
      if (verbose) console.log(`[code-server] ${line}`);
      else if (/error/i.test(line)) console.error(`\n[code-server] ${line}`);
    },
  });
  finish();
} catch (err) {
  console.error(`\nnpm start could not open VS Code: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
if (sandboxNote) console.error(sandboxNote);
console.log(`\nOpen ${session.url} in a browser; Logbook's chat is in the sidebar.`);
if (verbose) console.log(`  (the same window: ${session.longUrl})`);
console.log(
  useDemo
    ? 'Model: the demo model (connect a real one from the model picker in the chat, or start with LOGBOOK_API_KEY set).'
    : 'Model: from your settings and environment.',
);
console.log('Press Ctrl+C to stop.');

async function stop() {
  await session.stop();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
