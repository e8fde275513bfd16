#!/usr/bin/env node
// `npm start`: builds the extension and opens it in a real VS Code (code-server on 127.0.0.1) on
// a fresh copy of the sample workspace. Prints the URL to open. With no model configured, a local
// demo model answers, so the extension can be tried without an API key.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './code-server/instance.mjs';
import { startSampleSession } from './code-server/sample-session.mjs';
import { missingSystemPackages } from './code-server/system-packages.mjs';
import { isInstalled } from './code-server/install.mjs';

const port = Number(process.env.LOGBOOK_PORT ?? 8750);
// The CLI's names first, the OpenAI SDK's as fallbacks (src/core/llm/environment-names.ts).
const pick = (...names) => names.map((n) => process.env[n]?.trim()).find(Boolean);
const baseUrl = pick('LOGBOOK_BASE_URL', 'OPENAI_BASE_URL');
const model = pick('LOGBOOK_MODEL');
const useDemo = !pick('LOGBOOK_API_KEY', 'OPENAI_API_KEY') && !baseUrl;

// Said before the build, so a missing package is the first thing a new user reads.
const missing = isInstalled() ? [] : missingSystemPackages();
if (missing.length > 0) {
  console.error(
    `\nnpm start installs code-server once (into .vscode-test/) and builds its native modules,\n` +
      `which needs these system packages: ${missing.join(', ')}\n\n` +
      `  sudo apt-get install ${missing.join(' ')}\n`,
  );
  process.exit(1);
}

// Not needed to start, but without bwrap the agent's commands run unsandboxed, each asking first.
try {
  execFileSync('sh', ['-c', 'command -v bwrap'], { stdio: 'ignore' });
} catch {
  console.error(
    `\nThe agent's commands will run without a sandbox (each asks first): bubblewrap is missing.\n` +
      `  sudo apt-get install bubblewrap socat\n`,
  );
}

execFileSync(process.execPath, [join(repoRoot, 'esbuild.mjs')], { stdio: 'inherit', cwd: repoRoot });

let session;
try {
  session = await startSampleSession({
    runDir: join(repoRoot, '.vscode-test', 'start'),
    port,
    demo: useDemo,
    // The extension reads its endpoint and model from Settings; the key from the environment.
    settings: {
      ...(baseUrl && !useDemo ? { 'logbook.llm.baseUrl': baseUrl } : {}),
      ...(model && !useDemo ? { 'logbook.llm.model': model } : {}),
    },
    log: (line) => {
      if (/error/i.test(line)) console.error(`[code-server] ${line}`);
    },
  });
} catch (err) {
  console.error(`\nnpm start could not open VS Code: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
console.log('\nLogbook is running in VS Code (code-server) on a fresh copy of the sample workspace. Open:\n');
console.log(`  ${session.url}\n`);
console.log(
  useDemo
    ? 'Model: the local demo model (set LOGBOOK_API_KEY, or LOGBOOK_BASE_URL and LOGBOOK_MODEL, to use a real one).'
    : 'Model: from your settings and environment.',
);
console.log('Press Ctrl+C to stop.');

async function stop() {
  await session.stop();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
