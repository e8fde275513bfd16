// Shared set-up for the CLI tests: temp workspaces, the scripted LLM, and the CLI's environment.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { eventFileName, openEventStore } from '../../../src/core/log';
import { startScriptedLlm, type Scenario, type ScriptedLlm } from '../../support/llm-server';
import { assertExportsValidate } from './export-contract';

/** Must never appear in any output or file. */
export const SECRET_KEY = 'sk-test-DO-NOT-LEAK-4242';

export class CliFixture {
  private readonly dirs: string[] = [];
  llm: ScriptedLlm | undefined;

  tmp(prefix = 'logbook-cli-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async startLlm(scenario: Scenario): Promise<Record<string, string>> {
    // A test may start several in turn: one left listening would keep mocha from exiting.
    await this.llm?.close();
    this.llm = await startScriptedLlm({ scenario });
    return this.env();
  }

  env(): Record<string, string> {
    if (!this.llm) throw new Error('start the scripted LLM first');
    return { OPENAI_BASE_URL: this.llm.baseUrl, OPENAI_API_KEY: SECRET_KEY, LOGBOOK_MODEL: 'scripted-model' };
  }

  /**
   * Ends a test: every conversation it left under its temp folders must export to OpenHands SDK
   * files that validate (export-contract.ts), then the folders go.
   */
  async cleanup(): Promise<void> {
    await this.llm?.close();
    this.llm = undefined;
    const dirs = this.dirs.splice(0);
    try {
      await assertExportsValidate(dirs);
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  }
}

/** Every file under `dir` whose content contains `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) hits.push(...filesContaining(p, needle));
    else if (readFileSync(p).includes(needle)) hits.push(p);
  }
  return hits;
}

/** The one conversation directory `run` created under the workspace. */
export function onlyConversationDir(workspace: string): string {
  const root = join(workspace, '.logbook', 'conversations');
  const dirs = readdirSync(root);
  if (dirs.length !== 1) throw new Error(`expected one conversation in ${root}, found ${dirs.length}`);
  return join(root, dirs[0]!);
}

/** A terminal tool call as the scripted LLM sends it. */
export function terminalCall(id: string, command: string, risk: 'LOW' | 'MEDIUM' | 'HIGH' = 'LOW') {
  return { id, name: 'terminal', arguments: { command, security_risk: risk, summary: command } };
}

/** Every slot of a conversation's log as plain JSON (corrupt records included), read-only. */
export async function readLogJson(dir: string): Promise<Record<string, unknown>[]> {
  const store = await openEventStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  try {
    const out: Record<string, unknown>[] = [];
    for await (const slot of store.iterate(0)) out.push(slot as unknown as Record<string, unknown>);
    return out;
  } finally {
    await store.close();
  }
}

const OPENHANDS_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'openhands');

/**
 * `n` real OpenHands sample events, cycled with fresh ids, in the OpenHands layout under `dir`: a
 * long conversation no condenser touched, to import or continue.
 */
export function openHandsSampleLayout(dir: string, n: number): string {
  mkdirSync(join(dir, 'events'), { recursive: true });
  copyFileSync(join(OPENHANDS_FIXTURES, 'base_state.json'), join(dir, 'base_state.json'));
  const sample = readFileSync(join(OPENHANDS_FIXTURES, 'real-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  for (let i = 0; i < n; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    writeFileSync(
      join(dir, 'events', eventFileName(i, id)),
      JSON.stringify({ ...sample[i % sample.length], id }),
    );
  }
  return dir;
}
