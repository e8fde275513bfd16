// Hooks benchmark: what the hook machinery adds to each action.
//   H1 a `logbook run` of 40 commands with a no-op PreToolUse and PostToolUse hook (`true`, matching
//      every tool) against the same run without hooks: wall time per action, the hooks' programs'
//      own run time (each run's recorded duration_ms, summed from the log) taken out. Target ≤ 1.1×.
// Run: node --import tsx bench/hooks-bench.ts [--json FILE] [--actions N]. Writes
// bench/HOOKS-RESULTS.md (not with --actions, a smaller trial run).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../src/core/agent/event-codec';
import { openEventStore } from '../src/core/log';
import { startScriptedLlm, type Scenario } from '../test/support/llm-server';
import { bundleCli } from './imported-conversation';
import { machineLines, prettierMarkdown, resultsTable, type Row } from './report';

const RUNS = 5;
const TARGET = 1.1;
const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ACTIONS = Number(flag('--actions') ?? 40);
const now = () => performance.now();
const log = (s: string) => process.stderr.write(s + '\n');
const f1 = (x: number) => x.toFixed(1);
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function scenario(): Scenario {
  const turns: Scenario['turns'] = Array.from({ length: ACTIONS }, (_, i) => ({
    reply: {
      toolCalls: [
        {
          id: `c_${i}`,
          name: 'terminal',
          arguments: { command: `true ${i}`, security_risk: 'LOW', summary: 'noop' },
        },
      ],
    },
  }));
  turns.push({ reply: { content: 'done' } });
  return { name: 'hooks-bench', turns };
}

/** One run; its wall time and the hooks' programs' time its log records. */
async function once(
  cli: string,
  work: string,
  hooks: boolean,
): Promise<{ ms: number; hookMs: number; runs: number }> {
  const ws = fs.mkdtempSync(path.join(work, 'ws-'));
  const config = fs.mkdtempSync(path.join(work, 'config-'));
  fs.mkdirSync(path.join(config, 'logbook'));
  const noop = [{ matcher: '*', hooks: [{ type: 'command', command: 'true' }] }];
  fs.writeFileSync(
    path.join(config, 'logbook', 'config.json'),
    JSON.stringify(hooks ? { hooks: { PreToolUse: noop, PostToolUse: noop } } : {}),
  );
  const llm = await startScriptedLlm({ scenario: scenario() });
  try {
    const env = {
      ...process.env,
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'bench',
      LOGBOOK_MODEL: 'scripted-model',
      XDG_CONFIG_HOME: config,
      LOGBOOK_CHECKPOINTS: 'off',
    };
    const t0 = now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [cli, 'run', '--workspace', ws, '--confirm', 'never', '--task', 'go'],
        {
          env,
          stdio: 'ignore',
        },
      );
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`logbook run exited ${code}`))));
    });
    const ms = now() - t0;
    const root = path.join(ws, '.logbook', 'conversations');
    const dir = path.join(root, fs.readdirSync(root)[0]!);
    const store = await openEventStore<StoredConversationEvent>(dir, {
      codec: conversationEventCodec,
      readOnly: true,
    });
    let hookMs = 0;
    let runs = 0;
    for await (const e of store.iterate(0)) {
      const ev = e as { kind?: string; key?: string; value?: { duration_ms?: number } };
      if (ev.kind === 'ConversationStateUpdateEvent' && ev.key === 'hook_run') {
        hookMs += ev.value?.duration_ms ?? 0;
        runs++;
      }
    }
    await store.close();
    if (hooks && runs !== 2 * ACTIONS) throw new Error(`expected ${2 * ACTIONS} hook runs, found ${runs}`);
    return { ms, hookMs, runs };
  } finally {
    await llm.close();
  }
}

async function main(): Promise<void> {
  const started = now();
  const loadAtStart = os.loadavg();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-hooks-bench-'));
  try {
    const cli = await bundleCli(work);
    const without: number[] = [];
    const withHooks: number[] = [];
    const programs: number[] = [];
    await once(cli, work, false); // warm-up, untimed
    for (let i = 0; i < RUNS; i++) {
      const a = await once(cli, work, false);
      const b = await once(cli, work, true);
      without.push(a.ms / ACTIONS);
      withHooks.push((b.ms - b.hookMs) / ACTIONS);
      programs.push(b.hookMs / ACTIONS);
      log(
        `run ${i + 1}: ${f1(a.ms / ACTIONS)} ms/action without, ${f1((b.ms - b.hookMs) / ACTIONS)} with (hook programs ${f1(b.hookMs / ACTIONS)} taken out)`,
      );
    }
    const ratio = median(withHooks) / median(without);
    const workload = `H1 \`logbook run\` of ${ACTIONS} commands, no-op PreToolUse + PostToolUse hooks`;
    const rows: Row[] = [
      {
        workload,
        metric: 'ms per action without hooks (median)',
        value: f1(median(without)),
        target: '',
        pass: null,
      },
      {
        workload,
        metric: "ms per action with hooks, the hook programs' own time taken out (median)",
        value: f1(median(withHooks)),
        target: '',
        pass: null,
      },
      {
        workload,
        metric: "the hook programs' own time per action (2 runs of `true`)",
        value: f1(median(programs)),
        target: '',
        pass: null,
      },
      {
        workload,
        metric: 'with / without',
        value: ratio.toFixed(2),
        target: `≤ ${TARGET}`,
        pass: ratio <= TARGET,
      },
    ];
    const table = resultsTable(rows);
    process.stdout.write(table + '\n');
    const json = flag('--json');
    if (json) fs.writeFileSync(json, JSON.stringify(rows, null, 2));
    if (!flag('--actions')) {
      const file = path.join(__dirname, 'HOOKS-RESULTS.md');
      const md = [
        '# Hooks benchmark',
        '',
        `Generated by \`node --import tsx bench/hooks-bench.ts\`. ${RUNS} runs of each, taking turns, after one`,
        'untimed warm-up run; checkpoints off, the sandbox as the machine has it, confirmation `never`. A run',
        "with hooks has the time its log records for the hook programs (each run's `duration_ms`) taken out,",
        'so what is left is what Logbook itself adds: matching, the JSON in and out, the verdicts and the',
        'records of every run in the signed log.',
        '',
        table,
        '',
        ...machineLines({ loadAtStart, wallMs: now() - started }),
        '',
      ].join('\n');
      fs.writeFileSync(file, await prettierMarkdown(file, md));
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  log(String(err instanceof Error ? err.stack : err));
  process.exitCode = 1;
});
