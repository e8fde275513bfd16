// ACP benchmark: what serving a turn over the Agent Client Protocol costs over the same turn run
// by `logbook run`, with the scripted model answering both.
//   P1 one turn (the model creates a file, then answers): `logbook run --task` from spawn to exit,
//      against `logbook acp` from spawn through initialize, session/new and session/prompt to the
//      turn's stopReason and the process's exit (an editor's whole first turn), in pairs taking
//      turns at going first; the median of the per-pair ratios.
// Run: node --import tsx bench/acp-bench.ts [--json FILE] [--runs N]. Writes bench/ACP-RESULTS.md
// (not with --runs, a smaller trial run).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream } from '@agentclientprotocol/sdk';
import { newSigningKeyPem } from '../src/core/signing';
import { startScriptedLlm, type Scenario } from '../test/support/llm-server';
import { bundleCli } from './imported-conversation';
import { machineLines, prettierMarkdown, resultsTable, type Row } from './report';

const RUNS = 9;
const TARGET_RATIO = 1.2;

const now = () => performance.now();
const log = (s: string) => process.stderr.write(s + '\n');
const f0 = (x: number) => x.toFixed(0);
const f2 = (x: number) => x.toFixed(2);
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const runs = (xs: readonly number[], f: (x: number) => string) => xs.map(f).join(' / ');

const SCENARIO: Scenario = {
  name: 'acp-bench-turn',
  turns: [
    {
      reply: {
        content: 'Creating the file.',
        toolCalls: [
          {
            name: 'file_editor',
            arguments: { command: 'create', path: 'hello.txt', file_text: 'hello\n', security_risk: 'LOW' },
          },
        ],
      },
    },
    { reply: { content: 'Created hello.txt.' } },
  ],
};

interface Turn {
  /** Spawn to exit. */
  ms: number;
  /** session/prompt sent to its answer (ACP only). */
  promptMs?: number;
}

function childEnv(work: string, llmUrl: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(OPENAI_|LOGBOOK_)/.test(k)) env[k] = v;
  return {
    ...env,
    OPENAI_BASE_URL: llmUrl,
    OPENAI_API_KEY: 'bench',
    LOGBOOK_MODEL: 'scripted-model',
    LOGBOOK_SIGNING_KEY: path.join(work, 'signing-key.pem'),
    XDG_CONFIG_HOME: path.join(work, 'config'),
    LOGBOOK_CHECKPOINTS_DIR: path.join(work, 'checkpoints'),
  };
}

async function withModel<T>(work: string, f: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const llm = await startScriptedLlm({ scenario: SCENARIO });
  try {
    const out = await f(childEnv(work, llm.baseUrl));
    if (llm.remainingTurns() !== 0)
      throw new Error('the scripted model was not asked what the scenario expects');
    return out;
  } finally {
    await llm.close();
  }
}

function runTurn(cli: string, work: string): Promise<Turn> {
  const ws = fs.mkdtempSync(path.join(work, 'ws-'));
  return withModel(work, (env) => {
    const t0 = now();
    const child = spawn(process.execPath, [cli, 'run', '--workspace', ws, '--task', 'write hello'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (status) => {
        const ms = now() - t0;
        if (status !== 0) return reject(new Error(`logbook run failed (${status}): ${stderr}`));
        resolve({ ms });
      });
    });
  });
}

function acpTurn(cli: string, work: string): Promise<Turn> {
  const ws = fs.mkdtempSync(path.join(work, 'ws-'));
  return withModel(work, async (env) => {
    const t0 = now();
    const child = spawn(process.execPath, [cli, 'acp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const connection = client({ name: 'acp-bench' })
      .onNotification('session/update', () => undefined)
      .connect(
        ndJsonStream(
          Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
          Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
        ),
      );
    await connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const p0 = now();
    const res = await connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write hello' }],
    });
    const promptMs = now() - p0;
    if (res.stopReason !== 'end_turn') throw new Error(`the turn ended ${res.stopReason}: ${stderr}`);
    connection.close();
    child.stdin.end();
    const status = await exited;
    if (status !== 0) throw new Error(`logbook acp failed (${status}): ${stderr}`);
    return { ms: now() - t0, promptMs };
  });
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const n = Number(arg('runs') ?? RUNS);
  const trial = n !== RUNS;
  const jsonOut = arg('json');
  const loadAtStart = os.loadavg();
  const t0 = now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-acp-bench-'));
  const rows: Row[] = [];
  try {
    const cli = await bundleCli(work);
    fs.writeFileSync(path.join(work, 'signing-key.pem'), newSigningKeyPem(), { mode: 0o600 });
    // Warm-up of both (the bundle's first read, the checkpoint store's first folder), not measured.
    await runTurn(cli, work);
    await acpTurn(cli, work);
    const cliRuns: Turn[] = [];
    const acpRuns: Turn[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < n; r++) {
      let a: Turn;
      let b: Turn;
      if (r % 2 === 0) {
        a = await runTurn(cli, work);
        b = await acpTurn(cli, work);
      } else {
        b = await acpTurn(cli, work);
        a = await runTurn(cli, work);
      }
      cliRuns.push(a);
      acpRuns.push(b);
      ratios.push(b.ms / a.ms);
      log(`pair ${r + 1}: run ${f0(a.ms)} ms, acp ${f0(b.ms)} ms (prompt ${f0(b.promptMs!)} ms)`);
    }
    const ratio = median(ratios);
    const ms = (xs: Turn[]) => median(xs.map((x) => x.ms));
    rows.push(
      {
        workload: 'P1 one turn',
        metric: `\`logbook run --task\`: one scripted turn (a file created, then an answer), spawn to exit; median of ${n}`,
        value: `${f0(ms(cliRuns))} ms (runs: ${runs(
          cliRuns.map((x) => x.ms),
          f0,
        )})`,
        target: '',
        pass: null,
      },
      {
        workload: 'P1 one turn',
        metric: `\`logbook acp\`: the same turn, spawn through initialize, session/new, session/prompt to the process's exit; median of ${n}`,
        value: `${f0(ms(acpRuns))} ms (runs: ${runs(
          acpRuns.map((x) => x.ms),
          f0,
        )})`,
        target: '',
        pass: null,
      },
      {
        workload: 'P1 one turn',
        metric: 'informational: the ACP turn alone, session/prompt sent to its stopReason (median)',
        value: `${f0(median(acpRuns.map((x) => x.promptMs!)))} ms`,
        target: '',
        pass: null,
      },
      {
        workload: 'P1 one turn',
        metric: `ACP ÷ \`logbook run\`, pairs taking turns at going first; median of the ${n} per-pair ratios`,
        value: `${f2(ratio)}× (pairs: ${runs(
          [...ratios].sort((x, y) => x - y),
          f2,
        )})`,
        target: `≤ ${TARGET_RATIO}×`,
        pass: ratio <= TARGET_RATIO,
      },
    );
    const table = resultsTable(rows);
    process.stdout.write(table + '\n');
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ rows }, null, 2) + '\n');
    if (!trial) {
      const file = path.join(__dirname, 'ACP-RESULTS.md');
      const md = [
        '# ACP benchmark results',
        '',
        'Generated by `node --import tsx bench/acp-bench.ts` (bench/acp-bench.ts; part of `npm run bench`).',
        'Every ratio compares numbers measured in the same run on the same machine. Do not edit by hand;',
        'rerun the bench.',
        '',
        ...machineLines({ loadAtStart, wallMs: now() - t0, extra: [`date: ${new Date().toISOString()}`] }),
        '',
        '## Results',
        '',
        table,
        '',
        '## How it is measured',
        '',
        'Both sides talk to the scripted OpenAI-compatible model (test/support/llm-server), started afresh',
        'for each turn, with the same two replies: a `file_editor` create, then a final answer. Both run the',
        'same CLI bundle with the sandbox, checkpoints and signing as configured by default. The ACP side is a',
        'client on the ACP SDK driving a spawned `logbook acp` over its stdio, as an editor does; its time',
        "includes the protocol's handshake and the session's creation, which `logbook run` does in-process.",
        '',
      ].join('\n');
      fs.writeFileSync(file, await prettierMarkdown(file, md));
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
