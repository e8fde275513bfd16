// Records test/fixtures/recordings/count-and-edit again: `logbook run` on a copy of the sample
// workspace against the scripted model, with the conversation and its checkpoint store written
// into the fixture. Run it after a change that makes the stored recording diverge on purpose:
//   node --import tsx scripts/record-replay-fixture.ts
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeDirFor } from '../src/host/node/checkpoints/git-checkpoint-store';
import { newSigningKeyPem } from '../src/core/signing';
import { startScriptedLlm, type Scenario } from '../test/support/llm-server';

const repo = join(__dirname, '..');
const fixture = join(repo, 'test/fixtures/recordings/count-and-edit');
const scenarioFile = join(repo, 'test/fixtures/scenarios/recorded-count-and-edit.json');
const TASK = 'Add a subtract function to src/math.js.';
// A fixed, neutral path: the recording names its workspace, and its checkpoint store is found by it.
const workspace = join(tmpdir(), 'logbook-recording', 'sample');

function runCli(args: string[], env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'src/host/node/cli.ts'), ...args], {
      cwd: repo,
      env,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function main(): Promise<void> {
  const conversation = join(fixture, 'conversation');
  const checkpoints = join(fixture, 'checkpoints');
  rmSync(conversation, { recursive: true, force: true });
  rmSync(checkpoints, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
  cpSync(join(repo, 'test/fixtures/workspace'), workspace, { recursive: true });
  // The signing key and config of this run only: nothing goes to the user's ~/.config.
  const config = mkdtempSync(join(tmpdir(), 'logbook-record-config-'));
  const key = join(config, 'signing-key.pem');
  writeFileSync(key, newSigningKeyPem(), { mode: 0o600 });
  const llm = await startScriptedLlm({
    scenario: JSON.parse(readFileSync(scenarioFile, 'utf8')) as Scenario,
  });
  try {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !/^(OPENAI_|LOGBOOK_)/.test(k)) env[k] = v;
    Object.assign(env, {
      OPENAI_BASE_URL: llm.baseUrl,
      // Long enough that redacting it in the log never touches other words (the model's name).
      OPENAI_API_KEY: 'sk-recording-placeholder-key-0000',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_CHECKPOINTS_DIR: checkpoints,
      LOGBOOK_SIGNING_KEY: key,
      XDG_CONFIG_HOME: config,
    });
    const code = await runCli(
      ['run', '--workspace', workspace, '--confirm', 'never', '--store', conversation, '--task', TASK],
      env,
    );
    if (code !== 0) throw new Error(`logbook run exited ${code}`);
    if (llm.remainingTurns() !== 0) throw new Error(`${llm.remainingTurns()} scripted turns were not used`);
  } finally {
    await llm.close();
    rmSync(config, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
  // What neither the log nor the checkpoints need: git's sample hooks, the store's staging index,
  // the log's disk reserve (made again by whatever writes to the log). Keeps the fixture small.
  const store = storeDirFor(checkpoints, workspace);
  for (const extra of [join(store, 'git/hooks'), join(store, 'git/description'), join(store, 'index')])
    rmSync(extra, { recursive: true, force: true });
  rmSync(join(conversation, 'reserve'), { force: true });
  // Replay finds the store by the workspace's path, which no longer exists: check it still does.
  if (!existsSync(store)) throw new Error(`no checkpoint store at ${store}`);
  console.log(`recorded ${conversation}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
