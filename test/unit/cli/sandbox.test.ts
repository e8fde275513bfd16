// The sandbox as `logbook` users meet it: the first lines of a run say what holds the boundary,
// the log records it, a command that writes outside the workspace fails read-only, and where no
// sandbox can start every command asks (or, with --sandbox required, none runs).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture, onlyConversationDir, terminalCall } from './fixtures';

describe('logbook and the sandbox', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  let outside: string;
  beforeEach(() => {
    // Outside the workspace, where the sandbox still sees it.
    outside = outsideFolder('cli-');
    writeFileSync(join(outside, 'victim.txt'), 'original\n');
  });
  afterEach(() => {
    fx.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  const writeOutside = () =>
    fx.startLlm({
      name: 'cli-sandbox',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [terminalCall('call_w', `echo pwned > ${outside}/victim.txt; echo exit=$?`, 'LOW')],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
    });

  it('runs commands sandboxed: says so first, records it, and a write outside fails read-only', async () => {
    const env = await writeOutside();
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'try', '--confirm', 'never', '--json'], {
      env,
    });
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stderr.split('\n').slice(0, 3).join('\n'), /sandbox: Commands run in a sandbox/);
    assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'original\n');
    const events = jsonLines(r);
    const notice = events.find((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'sandbox');
    assert.equal((notice?.value as { state?: string } | undefined)?.state, 'on');
    const observation = JSON.stringify(events.find((e) => e.kind === 'ObservationEvent'));
    assert.match(observation, /Read-only file system/);
    assert.match(observation, /exit=1/);
  });

  it('without a sandbox (bwrap missing) says why with the fix, records it, and the command asks', async () => {
    const lsScenario = (name: string) =>
      fx.startLlm({
        name,
        turns: [
          { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_ls', 'ls', 'LOW')] } },
          { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
        ],
      });
    const llm = await lsScenario('cli-no-sandbox');
    const env = { ...llm, LOGBOOK_BWRAP: join(fx.tmp(), 'no-bwrap') };
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'try'], { env });
    // `ls` is LOW: in risky mode it would run unasked with a sandbox.
    assert.equal(r.code, 2, printed(r));
    const head = r.stdout.split('\n').slice(0, 4).join('\n');
    assert.match(
      head,
      /sandbox: Commands run without a sandbox, so every command asks first\. bubblewrap \(bwrap\) is not installed/,
    );
    assert.match(head, /fix: Install it: sudo apt install bubblewrap/);
    const show = JSON.parse((await runCli(['show', onlyConversationDir(ws), '--json'])).stdout) as {
      pending_actions: { summary: string }[];
    };
    assert.deepEqual(
      show.pending_actions.map((p) => p.summary),
      ['ls'],
    );
    const withSandbox = await runCli(['run', '--workspace', fx.tmp(), '--task', 'try'], {
      env: await lsScenario('cli-with-sandbox'),
    });
    assert.equal(
      withSandbox.code,
      0,
      `with a sandbox the same command runs unasked: ${printed(withSandbox)}`,
    );
  });

  it('--sandbox required without a sandbox runs no command', async () => {
    const env = { ...(await writeOutside()), LOGBOOK_BWRAP: join(fx.tmp(), 'no-bwrap') };
    const ws = fx.tmp();
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'try', '--confirm', 'never', '--sandbox', 'required', '--json'],
      { env },
    );
    assert.match(r.stderr, /No command can run: logbook.sandbox.mode is "required"/);
    assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'original\n');
    const observation = JSON.stringify(
      jsonLines(r).find((e) => e.kind === 'ObservationEvent' || e.kind === 'AgentErrorEvent'),
    );
    assert.match(observation, /required/);
  });

  it('SIGTERM stops the sandboxed command: nothing it started outlives the CLI', async () => {
    const marker = `${300 + (Date.now() % 1000)}.${process.pid}`;
    const env = await fx.startLlm({
      name: 'cli-sandbox-stop',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              // The file is written by the foreground process itself, once it runs: a signal sent
              // before it existed (between `echo` and its fork) would miss it, and the shell then
              // waits for it as for a command that chose to outlive Ctrl+C.
              terminalCall(
                'call_long',
                `sleep ${marker} & sh -c 'echo started > started.txt; exec sleep ${marker}'`,
              ),
            ],
          },
        },
      ],
    });
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'long', '--confirm', 'never', '--json'], {
      env,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (!existsSync(join(ws, 'started.txt'))) return;
          clearInterval(poll);
          child.kill('SIGTERM');
        }, 25);
        child.once('exit', () => clearInterval(poll));
      },
    });
    assert.equal(r.code, 143, printed(r));
    const observation = jsonLines(r).find((e) => e.kind === 'ObservationEvent');
    assert.equal((observation?.observation as { exit_code?: number } | undefined)?.exit_code, 130);
    // Killed as the CLI exits: each is gone once the kernel has reaped it.
    assert.deepEqual(await processesGone(marker), [], 'a process of the sandbox still runs');
  });

  it('logbook sandbox: the diagnostics, and exit 1 with the fix where none can start', async () => {
    const ws = fx.tmp();
    const ok = await runCli(['sandbox', '--workspace', ws, '--allow-host', 'registry.npmjs.org', '--json']);
    assert.equal(ok.code, 0, printed(ok));
    const report = JSON.parse(ok.stdout) as {
      state: string;
      writable: string[];
      hidden: string[];
      allowed_hosts: string[];
      read_only_in_workspace: string[];
      unix_sockets_filtered: boolean;
    };
    assert.equal(report.state, 'on');
    assert.equal(report.unix_sockets_filtered, true);
    assert.equal(report.writable[0], ws);
    assert.ok(report.hidden.some((p) => p.includes('.ssh')));
    assert.ok(report.read_only_in_workspace.includes(join(ws, '.git', 'config')));
    assert.deepEqual(report.allowed_hosts, ['registry.npmjs.org']);
    const text = await runCli(['sandbox', '--workspace', ws]);
    assert.match(text.stdout, /Unix sockets commands may connect to:\n {2}none: creating one fails/);
    const missing = await runCli(['sandbox'], { env: { LOGBOOK_BWRAP: join(ws, 'none') } });
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /Fix: Install it/);
    assert.ok(!existsSync(join(ws, 'none')));
  });
});

/** The processes with `text` in their command line still there after 10 s (none, at once, if none is). */
async function processesGone(text: string): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  let left = processesWith(text);
  while (left.length && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 50));
    left = processesWith(text);
  }
  return left;
}

/** Host processes whose command line holds `text`. */
function processesWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(text)) found.push(`${pid}: ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
