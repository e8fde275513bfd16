// Records a stored recording of test/fixtures/recordings again: `logbook run` on a copy of the
// sample workspace against the scripted model, with the conversation and its checkpoint store
// written into the fixture. Run it after a change that makes the stored recording diverge on purpose:
//   node --import tsx scripts/record-replay-fixture.ts [count-and-edit|delegate-and-edit]
// A recording's `config/` folder (agent definitions) is the user's config folder while it runs.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeDirFor } from '../src/host/node/checkpoints/git-checkpoint-store';
import { newSigningKeyPem } from '../src/core/signing';
import { startScriptedLlm, type Scenario } from '../test/support/llm-server';

const repo = join(__dirname, '..');
const RECORDINGS = ['count-and-edit', 'delegate-and-edit'];
const name = process.argv[2] ?? 'count-and-edit';
if (!RECORDINGS.includes(name)) throw new Error(`No recording "${name}" (known: ${RECORDINGS.join(', ')})`);
const fixture = join(repo, 'test/fixtures/recordings', name);
const scenarioFile = join(repo, `test/fixtures/scenarios/recorded-${name}.json`);
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
  if (existsSync(join(fixture, 'config'))) cpSync(join(fixture, 'config'), config, { recursive: true });
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
  removeReserves(conversation);
  // Replay finds the store by the workspace's path, which no longer exists: check it still does.
  if (!existsSync(store)) throw new Error(`no checkpoint store at ${store}`);
  console.log(`recorded ${conversation}`);
}

/** The disk reserve of the log and of each delegated agent's log in it. */
function removeReserves(dir: string): void {
  rmSync(join(dir, 'reserve'), { force: true });
  const agents = join(dir, 'agents');
  if (existsSync(agents)) for (const child of readdirSync(agents)) removeReserves(join(agents, child));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
