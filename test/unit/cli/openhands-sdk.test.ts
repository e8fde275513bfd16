// The OpenHands SDK v1.43 contract end to end: a conversation the SDK wrote itself goes through
// import, show and export unchanged; a conversation Logbook records exports to files the SDK's
// schemas accept, and comes back from them still signed by whoever signed it.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSdkFolder, SDK_SCHEMAS } from '../../support/openhands-sdk-schema';
import { loadScenarioFile } from '../../support/llm-server';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const SDK_CONVERSATION = join(SDK_SCHEMAS, 'conversation');
const multiStepFile = join(__dirname, '..', '..', 'fixtures', 'scenarios', 'create-show-finish.json');

function eventFiles(dir: string): string[] {
  return readdirSync(join(dir, 'events'))
    .filter((n) => n.endsWith('.json'))
    .sort();
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

interface VerifyJson {
  status: string;
  events: number;
  imported: number;
  verified: number;
  signedBy: { did: string; from: number; to: number }[];
}

describe('OpenHands SDK v1.43: import, show and export against the SDK', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('the reference conversation the SDK wrote validates against its own schemas', () => {
    const r = checkSdkFolder(SDK_CONVERSATION);
    assert.equal(r.events, 28);
    assert.deepEqual(r.problems, []);
  });

  it('the validator refuses what the SDK refuses: a Logbook-only field, tools as function parameters', () => {
    const root = fx.tmp();
    const dir = join(root, 'changed');
    cpSync(SDK_CONVERSATION, dir, { recursive: true });
    const files = eventFiles(dir);
    const prompt = join(dir, 'events', files[0]!);
    writeFileSync(
      prompt,
      JSON.stringify({
        ...readJson(prompt),
        tools: [{ type: 'function', function: { name: 'terminal', description: 'x', parameters: {} } }],
      }),
    );
    const observation = join(dir, 'events', files[4]!);
    const o = readJson(observation) as { observation: Record<string, unknown> };
    writeFileSync(
      observation,
      JSON.stringify({ ...o, observation: { ...o.observation, full_output_path: '/tmp/out.txt' } }),
    );
    const state = readJson(join(dir, 'base_state.json'));
    delete state.agent;
    writeFileSync(join(dir, 'base_state.json'), JSON.stringify(state));
    const r = checkSdkFolder(dir);
    assert.equal(r.problems.length, 3, r.problems.join('\n'));
    assert.match(r.problems[0]!, /SystemPromptEvent.*description/);
    assert.match(r.problems[1]!, /TerminalObservation|full_output_path/);
    assert.match(r.problems[2]!, /base_state\.json.*agent/);
  });

  it('imports, shows and exports the SDK-written conversation with no field lost or changed', async () => {
    const root = fx.tmp();
    const store = join(root, 'imported');
    const imported = await runCli(['import-openhands', SDK_CONVERSATION, '--store', store]);
    assert.equal(imported.code, 0, printed(imported));
    assert.match(imported.stdout, /Imported 28 events/);

    const show = await runCli(['show', store, '--json']);
    assert.equal(show.code, 0, printed(show));
    const state = JSON.parse(show.stdout) as Record<string, unknown>;
    assert.equal(state.workspace, '/home/user/project', 'the working folder base_state.json names');
    assert.equal(state.status, 'finished');
    const lastError = state.last_error as { kind: string; current: boolean };
    assert.deepEqual([lastError.kind, lastError.current], ['AgentErrorEvent', false]);
    const text = await runCli(['show', store]);
    assert.match(text.stdout, /workspace {2}\/home\/user\/project/);
    assert.match(text.stdout, /past error AgentErrorEvent: .*went on after it/);
    assert.doesNotMatch(text.stdout, /last error/);

    const out = join(root, 'exported');
    const exported = await runCli(['export-openhands', store, out]);
    assert.equal(exported.code, 0, printed(exported));
    const sourceFiles = eventFiles(SDK_CONVERSATION);
    assert.deepEqual(eventFiles(out).slice(0, 28), sourceFiles, 'same file names: index and id');
    for (const name of sourceFiles) {
      assert.deepEqual(
        readJson(join(out, 'events', name)),
        readJson(join(SDK_CONVERSATION, 'events', name)),
        name,
      );
    }
    assert.equal(
      readFileSync(join(out, 'base_state.json'), 'utf8'),
      readFileSync(join(SDK_CONVERSATION, 'base_state.json'), 'utf8'),
    );
    assert.deepEqual(checkSdkFolder(out).problems, []);
  });

  it('a recorded conversation exports to files the SDK accepts, and imports back signed by its author', async () => {
    const env = await fx.startLlm(await loadScenarioFile(multiStepFile));
    const root = fx.tmp();
    const ws = fx.tmp();
    const store = join(root, 'conv');
    const run = await runCli(
      ['run', '--workspace', ws, '--task', 'Write a greeting to hello.txt', '--store', store],
      { env },
    );
    assert.equal(run.code, 0, printed(run));
    const out = join(root, 'exported');
    const exported = await runCli(['export-openhands', store, out], { env });
    assert.equal(exported.code, 0, printed(exported));
    const check = checkSdkFolder(out);
    assert.deepEqual(check.problems, []);
    const prompt = readJson(join(out, 'events', eventFiles(out)[0]!)) as { tools: { kind: string }[] };
    const kinds = prompt.tools.map((t) => t.kind);
    for (const kind of ['TerminalTool', 'FileEditorTool', 'FinishTool'])
      assert.ok(kinds.includes(kind), kind);
    const state = readJson(join(out, 'base_state.json')) as {
      agent: { llm: Record<string, unknown>; tools: { name: string }[] };
      workspace: { working_dir: string };
    };
    assert.equal(state.workspace.working_dir, ws);
    assert.equal(state.agent.llm.api_key, undefined, 'never the key');
    assert.ok(!readFileSync(join(out, 'base_state.json'), 'utf8').includes(env.OPENAI_API_KEY!));
    assert.ok(state.agent.tools.some((t) => t.name === 'TerminalTool'));
    // Beside the export, only what it cannot carry: the agent stamp every event had (one line), and
    // the few records the export changed otherwise; not a second copy of the conversation.
    const originals = readFileSync(join(out, 'logbook-original-records.jsonl'), 'utf8');
    const lines = originals.trim().split('\n');
    assert.deepEqual(JSON.parse(lines[0]!), { stamp: { agent_name: 'main', branch: 'main' } });
    // A whole record only for what the export leaves out (the workspace's checkpoints); of the
    // others only the fields the export changed, and nothing for those that lost only the stamp.
    const kept = lines.slice(1).map((l) => JSON.parse(l) as { index: number; record?: string; set?: object });
    for (const k of kept.filter((k) => k.record !== undefined))
      assert.match(
        String((JSON.parse(k.record!) as { key?: string }).key),
        /^checkpoint(_after)?$/,
        k.record,
      );
    const logged = (JSON.parse((await runCli(['verify', store, '--json'])).stdout) as VerifyJson).events;
    assert.ok(kept.length < logged / 2, `${kept.length} of ${logged} records kept`);
    const exportedBytes = eventFiles(out).reduce((n, f) => n + statSync(join(out, 'events', f)).size, 0);
    assert.ok(originals.length < exportedBytes, `${originals.length} bytes beside ${exportedBytes}`);

    const again = join(root, 'again');
    const imported = await runCli(['import-openhands', out, '--store', again]);
    assert.equal(imported.code, 0, printed(imported));
    assert.match(imported.stdout, /their signatures kept/);
    const verified = await runCli(['verify', again, '--json']);
    assert.equal(verified.code, 0, printed(verified));
    const v = JSON.parse(verified.stdout) as VerifyJson;
    const count = (await runCli(['verify', store, '--json'])).stdout;
    const source = JSON.parse(count) as VerifyJson;
    assert.deepEqual([v.status, v.imported, v.verified], ['verified', 0, source.events + 1]);
    // The author's key and the importer's are the run's one test key: one signer from 0 to the end.
    assert.deepEqual(
      v.signedBy.map((r) => [r.from, r.to]),
      [[0, source.events]],
      'every recorded event still signed by its author, the import event by the importer',
    );
  });

  it('an export changed after it was written: the events before the change stay signed, the rest are imported', async () => {
    const env = await fx.startLlm(await loadScenarioFile(multiStepFile));
    const root = fx.tmp();
    const store = join(root, 'conv');
    const run = await runCli(
      ['run', '--workspace', fx.tmp(), '--task', 'Write a greeting to hello.txt', '--store', store],
      { env },
    );
    assert.equal(run.code, 0, printed(run));
    const out = join(root, 'exported');
    assert.equal((await runCli(['export-openhands', store, out], { env })).code, 0);
    const files = eventFiles(out);
    const last = join(out, 'events', files.at(-1)!);
    writeFileSync(last, JSON.stringify({ ...readJson(last), timestamp: '2020-01-01T00:00:00' }));
    const again = join(root, 'again');
    const imported = await runCli(['import-openhands', out, '--store', again]);
    assert.equal(imported.code, 0, printed(imported));
    assert.match(imported.stdout, /the signatures of the first \d+ kept, the other \d+ unsigned as imported/);
    const v = await runCli(['verify', again, '--json']);
    assert.equal(v.code, 0, printed(v));
    const r = JSON.parse(v.stdout) as VerifyJson & { importedRanges: { from: number; to: number }[] };
    // The last exported event is the log's last recorded one, just before the import's own event.
    // It lost its signature, and so did those after the last signature before it (a signature
    // vouches for every event before it, so the kept ones end at a signature).
    const changed = r.events - 2;
    assert.equal(r.importedRanges.length, 1);
    const lost = r.importedRanges[0]!;
    assert.equal(lost.to, changed);
    assert.ok(lost.from > 0 && lost.from <= changed, `the first ${lost.from} events stay signed`);
    const text = await runCli(['verify', again]);
    assert.match(
      text.stdout,
      new RegExp(
        // The test's own key is "you"; the head kept outside the folder proves nothing is missing.
        `^${r.events} events verified, signed by (you|did:key:\\S+); events? [\\d–]*${changed} imported unsigned(; [^\\n]*)?\\n$`,
      ),
    );
    assert.ok(existsSync(join(out, 'logbook-original-records.jsonl')));
  });
});
