// Runs the real `logbook` CLI on a real pseudo-terminal (util-linux `script`), so stdin and stdout
// are TTYs as they are for a person, and types each answer when the question it answers appears.
import { spawn, spawnSync } from 'node:child_process';
import { cliBundle, testCheckpointsDir, testConfigDir, testSigningKey } from './cli-runner';

export interface TerminalResult {
  code: number | null;
  /** Everything the terminal showed (the typed answers echoed too), with \r\n as \n. */
  screen: string;
}

export interface TypedAnswer {
  /** Typed once the screen shows this after the previous answer. */
  after: RegExp;
  text: string;
}

/** Whether `script` can give a child a pseudo-terminal here. */
export function terminalAvailable(): boolean {
  return spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export async function runInTerminal(
  args: readonly string[],
  opts: { env?: Record<string, string>; cwd: string; answers?: TypedAnswer[]; timeoutMs?: number },
): Promise<TerminalResult> {
  const cli = await cliBundle();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(OPENAI_|LOGBOOK_|NO_COLOR$)/.test(k)) env[k] = v;
  }
  env.LOGBOOK_SIGNING_KEY = testSigningKey();
  env.XDG_CONFIG_HOME = testConfigDir();
  env.LOGBOOK_CHECKPOINTS_DIR = testCheckpointsDir();
  env.SHELL = '/bin/sh';
  env.TERM = 'xterm';
  Object.assign(env, opts.env);
  const command = [process.execPath, cli, ...args].map(shellQuote).join(' ');
  const answers = [...(opts.answers ?? [])];
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: opts.cwd, env });
    let screen = '';
    let from = 0;
    const typeWhenAsked = (): void => {
      const next = answers[0];
      if (!next || !next.after.test(screen.slice(from))) return;
      answers.shift();
      from = screen.length;
      child.stdin.write(`${next.text}\n`);
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      screen += d.replace(/\r\n/g, '\n');
      typeWhenAsked();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (screen += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `logbook ${args.join(' ')} timed out on the terminal; it showed:\n${JSON.stringify(screen)}`,
        ),
      );
    }, opts.timeoutMs ?? 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}
