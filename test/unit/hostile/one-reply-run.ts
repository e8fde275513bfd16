// The hostile file-tool tests' one move: the real CLI runs against a scripted model that makes some
// calls in one reply, then says "done"; then what the tools answered, and what the log kept.
import * as assert from 'node:assert/strict';
import { type CliResult, jsonLines, runCli } from '../cli/cli-runner';
import { type CliFixture, readLogJson } from '../cli/fixtures';

export type Call = { id: string; name: string; arguments: Record<string, unknown> };
export type Mode = 'act' | 'plan';

/** A call of tool `name`; a file_editor call says its risk and summary like a model that blends in. */
export const call = (name: string, args: Record<string, unknown>, id = `call_${name}`): Call => ({
  id,
  name,
  arguments: name === 'file_editor' ? { security_risk: 'LOW', summary: 'an ordinary step', ...args } : args,
});

export interface OneReplyRun {
  /** The scripted model's scenario name. */
  scenario: string;
  ws: string;
  store: string;
  mode: Mode;
  confirm: 'risky' | 'never';
  writable?: readonly string[];
  denyRead?: string;
  /** The CLI's HOME, when the test gives it one of its own. */
  home?: string;
}

/** Runs `logbook run --json` in `run.ws` with a model that makes `calls` in one reply, then says "done". */
export async function runOneReply(fx: CliFixture, run: OneReplyRun, calls: Call[]): Promise<CliResult> {
  const env = await fx.startLlm({
    name: run.scenario,
    turns: [
      { match: { lastRole: 'user' }, reply: { toolCalls: calls } },
      { match: { lastRole: 'tool' }, reply: { content: 'done' } },
    ],
  });
  const args = [
    'run',
    '--workspace',
    run.ws,
    '--store',
    run.store,
    '--mode',
    run.mode,
    '--confirm',
    run.confirm,
  ];
  for (const dir of run.writable ?? []) args.push('--writable', dir);
  if (run.denyRead) args.push('--deny-read', run.denyRead);
  return runCli([...args, '--json', '--task', 'go'], { env: run.home ? { ...env, HOME: run.home } : env });
}

/** Only the answers of the tools in the model's last request (its own calls name what it asked for), or of one call. */
export function toolAnswers(fx: CliFixture, id?: string): string {
  const body = fx.llm!.completionBodies().at(-1) as { messages: { role: string; tool_call_id?: string }[] };
  return JSON.stringify(body.messages.filter((m) => m.role === 'tool' && (!id || m.tool_call_id === id)));
}

/** Every event printed is in the log at `store`, and the log holds none of `canaries`. */
export async function assertLogged(
  store: string,
  r: CliResult,
  ...canaries: RegExp[]
): Promise<Record<string, unknown>[]> {
  const log = await readLogJson(store);
  const ids = new Set(log.map((e) => e.id));
  for (const e of jsonLines(r).filter((x) => typeof x.id === 'string'))
    assert.ok(ids.has(e.id), `event ${String(e.id)} was printed but is not in the log`);
  for (const canary of canaries) assert.doesNotMatch(JSON.stringify(log), canary);
  return log;
}
