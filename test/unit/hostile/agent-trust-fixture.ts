// What the agent-trust tests share: the conversation folders a workspace holds (a test that runs
// several conversations in one workspace tells them apart by which appeared), and the CLI run at
// a terminal, where it asks about held definitions.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliBundle, testCheckpointsDir, testConfigDir, testSigningKey } from '../cli/cli-runner';

/**
 * A shell command that writes `text` as the helper's definition. Run with `--sandbox off`: the
 * sandbox holds `.logbook`, and autopilot refuses the file tool's write there.
 */
export function writeHelperCommand(text: string): string {
  const encoded = Buffer.from(text).toString('base64');
  return `mkdir -p .logbook/agents && echo ${encoded} | base64 -d > .logbook/agents/helper.md`;
}

export function conversationDirs(workspace: string): string[] {
  const root = join(workspace, '.logbook', 'conversations');
  return existsSync(root) ? readdirSync(root).map((n) => join(root, n)) : [];
}

/**
 * Runs the CLI at a terminal (a pseudo-terminal from `script`), as `runCli` runs it otherwise, and
 * answers each question it asks on stderr with the next of `answers`.
 */
export async function runCliAtTerminal(
  args: readonly string[],
  env: Record<string, string>,
  answers: readonly string[],
): Promise<{ code: number | null; output: string }> {
  const cli = await cliBundle();
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(OPENAI_|LOGBOOK_)/.test(k)) full[k] = v;
  Object.assign(full, {
    LOGBOOK_SIGNING_KEY: testSigningKey(),
    XDG_CONFIG_HOME: testConfigDir(),
    LOGBOOK_CHECKPOINTS_DIR: testCheckpointsDir(),
    ...env,
  });
  const command = [process.execPath, cli, ...args].map(shellQuoted).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: full });
    let output = '';
    let asked = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`logbook ${args.join(' ')} at a terminal timed out:\n${output}`));
    }, 30_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      output += d;
      const questions = output.split('[y/N]').length - 1;
      while (asked < questions) child.stdin.write(`${answers[asked++] ?? ''}\n`);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function shellQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
