#!/usr/bin/env node
// `npm start`: builds the extension and opens it in a real VS Code (code-server on 127.0.0.1) on
// a sample workspace. Prints the URL to open. With no model configured, a local demo model
// (the scripted test server) answers, so the extension can be tried without an API key.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer, repoRoot } from './code-server/instance.mjs';

const port = Number(process.env.LOGBOOK_PORT ?? 8750);
const useDemo = !process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL;

execFileSync(process.execPath, [join(repoRoot, 'esbuild.mjs')], { stdio: 'inherit', cwd: repoRoot });

const stateDir = join(repoRoot, '.vscode-test', 'start');
mkdirSync(stateDir, { recursive: true });
const settings = {};
let demo;
if (useDemo) {
  demo = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'test/support/llm-server/cli.ts'),
      '--scenario',
      join(repoRoot, 'test/fixtures/scenarios/start-demo.json'),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const baseUrl = await new Promise((resolve, reject) => {
    demo.once('exit', (code) => reject(new Error(`demo model exited (${code})`)));
    demo.stdout.on('data', (d) => {
      const m = /listening on (\S+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
  });
  settings['logbook.llm.baseUrl'] = baseUrl;
  settings['logbook.llm.model'] = 'demo';
}

const server = await startCodeServer({
  runDir: stateDir,
  port,
  settings,
  reuseWorkspace: true,
  log: (line) => {
    if (/error/i.test(line)) console.error(`[code-server] ${line}`);
  },
});
const url = server.url([
  ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
  ['skipWelcome', 'true'],
]);
console.log('\nLogbook is running in VS Code (code-server). Open:\n');
console.log(`  ${url}\n`);
console.log(
  useDemo
    ? 'Model: the local demo model (set OPENAI_API_KEY / OPENAI_BASE_URL to use a real one).'
    : 'Model: from your settings and environment.',
);
console.log('Press Ctrl+C to stop.');

async function stop() {
  await server.stop();
  demo?.kill();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
