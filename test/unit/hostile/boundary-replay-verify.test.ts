// What `logbook verify` exits with for a whole conversation tree, and what `logbook replay` may
// touch: the real CLI as a child process against the scripted model. A delegated agent's log cut
// back fails the whole check; a conversation handed over twice verifies; a deleted signatures.log
// whose head is kept outside the folder, and events appended after the signed ones, are tampering,
// not an old unsigned log.
import * as assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childDirs, delegateCall, finish } from '../agents/agents-fixture';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir } from '../cli/fixtures';
import { appendEvent, cutBack, earlierSignedCount } from '../../support/log-tampering';

const VERIFIED = 0;
const BROKEN = 1;
const TRUNCATED = 4;

describe('hostile: verify judges the whole tree', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  async function finishedConversation(): Promise<string> {
    const ws = fx.tmp();
    const env = await fx.startLlm({
      name: 'one-step',
      turns: [{ match: { lastRole: 'user' }, reply: finish('c_f', 'done') }],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'say done'], { env });
    assert.equal(r.code, 0, printed(r));
    const dir = onlyConversationDir(ws);
    assert.equal((await runCli(['verify', dir])).code, VERIFIED);
    return dir;
  }

  it("a delegated agent's log cut back fails the whole verify with that agent's code", async () => {
    const ws = fx.tmp();
    const env = await fx.startLlm({
      name: 'one-explorer',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'look around' },
          reply: { toolCalls: [delegateCall('call_d', 'find login', 'explore')] },
        },
        // The child's answer comes late, so its first events are signed apart from its last.
        { match: { lastRole: 'user' }, reply: { ...finish('c_1', 'found it'), delayMs: 200 } },
        { match: { lastRole: 'tool', toolResultIncludes: 'found it' }, reply: { content: 'Explored.' } },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'look around'], { env });
    assert.equal(r.code, 0, printed(r));
    const dir = onlyConversationDir(ws);
    assert.equal((await runCli(['verify', dir])).code, VERIFIED);
    const [child] = childDirs(dir);
    const keep = earlierSignedCount(child!);
    assert.ok(keep, 'a signature covers fewer than all of the child’s events');
    cutBack(child!, keep);

    const cut = await runCli(['verify', dir]);
    assert.equal(cut.code, TRUNCATED, printed(cut));
    assert.match(cut.stdout, /TRUNCATED: .*truncated: \d+ events? missing/);
    const json = JSON.parse((await runCli(['verify', dir, '--json'])).stdout) as { verdict: string };
    assert.equal(json.verdict, 'truncated');

    // A worse finding in the child wins over a lesser one: an event added to it is tampering.
    appendEvent(child!, { chainIt: false });
    const worse = await runCli(['verify', dir]);
    assert.equal(worse.code, BROKEN, printed(worse));
  });

  it("a grandchild's log cut back fails the whole verify too (the tree at any depth)", async () => {
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(ws, '.logbook', 'agents', 'lead.md'),
      '---\nname: lead\ndescription: Splits work among agents.\ntools: [delegate]\n---\nSplit the work.\n',
    );
    const env = await fx.startLlm({
      name: 'grandchild',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'split it' },
          reply: { toolCalls: [delegateCall('d_lead', 'hand it down', 'lead')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'hand it down' },
          reply: { toolCalls: [delegateCall('d_exp', 'find login', 'explore')] },
        },
        { match: { lastRole: 'user' }, reply: { ...finish('c_g', 'found it'), delayMs: 200 } },
        { match: { lastRole: 'tool', toolResultIncludes: 'found it' }, reply: finish('c_l', 'lead done') },
        { match: { lastRole: 'tool', toolResultIncludes: 'lead done' }, reply: { content: 'All done.' } },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'split it'], { env });
    assert.equal(r.code, 0, printed(r));
    const dir = onlyConversationDir(ws);
    assert.equal((await runCli(['verify', dir])).code, VERIFIED);
    const [child] = childDirs(dir);
    const [grandchild] = childDirs(child!);
    const keep = earlierSignedCount(grandchild!);
    assert.ok(keep, 'a signature covers fewer than all of the grandchild’s events');
    cutBack(grandchild!, keep);
    const cut = await runCli(['verify', dir]);
    assert.equal(cut.code, TRUNCATED, printed(cut));
    assert.match(cut.stdout, /agent explore main\.lead\.1\.explore\.1 .*TRUNCATED: /);
  });

  it('a conversation handed over twice (main → reader → explore) verifies: each key vouched for by the one before', async () => {
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    writeFileSync(
      join(ws, '.logbook', 'agents', 'reader.md'),
      '---\nname: reader\ndescription: Reads the code.\ntools: [file_editor]\nmode: plan\n---\nRead with care.\n',
    );
    const transfer = (id: string, agent: string) => ({
      toolCalls: [{ id, name: 'transfer_to_agent', arguments: { agent_name: agent, reason: 'its turn' } }],
    });
    const env = await fx.startLlm({
      name: 'two-handoffs',
      turns: [
        { match: { lastRole: 'user' }, reply: transfer('c_1', 'reader') },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'now handled by the reader agent' },
          reply: transfer('c_2', 'explore'),
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'now handled by the explore agent' },
          reply: finish('c_f', 'explored'),
        },
      ],
    });
    const r = await runCli(['run', '--workspace', ws, '--task', 'hand it over twice'], { env });
    assert.equal(r.code, 0, printed(r));
    const dir = onlyConversationDir(ws);
    const verify = await runCli(['verify', dir, '--json']);
    assert.equal(verify.code, VERIFIED, printed(verify));
    const v = JSON.parse(verify.stdout) as {
      verdict: string;
      signedBy: { did: string }[];
      signerStanding: { did: string; standing: string }[];
    };
    assert.equal(v.verdict, 'verified');
    assert.equal(new Set(v.signedBy.map((s) => s.did)).size, 3, 'main, reader and explore each signed');
    assert.ok(
      v.signerStanding.every((s) => s.standing !== 'unknown'),
      verify.stdout,
    );
    const text = await runCli(['verify', dir]);
    assert.equal(text.code, VERIFIED, printed(text));
    assert.doesNotMatch(text.stdout + text.stderr, /unknown signer/);
  });

  it('signatures.log deleted where the head kept outside the folder says it was signed: tampering, not unsigned', async () => {
    const dir = await finishedConversation();
    rmSync(join(dir, 'signatures.log'));
    const r = await runCli(['verify', dir]);
    assert.equal(r.code, BROKEN, printed(r));
    assert.doesNotMatch(r.stdout, /written without signatures/);
    assert.match(
      r.stderr,
      /signatures\.log is gone, but the head kept outside the folder says \d+ events were signed/,
    );
  });

  it('an event appended after the signed ones is tampering, chained or not', async () => {
    for (const chainIt of [false, true]) {
      const dir = await finishedConversation();
      appendEvent(dir, { chainIt });
      const r = await runCli(['verify', dir]);
      assert.equal(r.code, BROKEN, `chained: ${chainIt}\n${printed(r)}`);
      assert.match(r.stdout, /broken at event \d+ \([^)]+\): appended/);
      assert.ok(existsSync(join(dir, 'signatures.log')));
    }
  });
});

/** Every file under `dir` with the sha256 of its bytes (and every link with where it points). */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string, rel: string): void => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, e.name);
      const name = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path, name);
      else out[name] = crypto.hash('sha256', readFileSync(path), 'hex');
    }
  };
  walk(dir, '');
  return out;
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name, arguments: { ...args, security_risk: 'LOW', summary: id } }],
});

describe('hostile: a replay stays in its copy', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  /**
   * Records a conversation whose calls name the workspace's files by absolute path: it views a.txt,
   * edits it, creates b.txt and appends to log.txt with a command. `extra` comes before the finish.
   */
  async function record(opts: { extra?: (ws: string, root: string) => object[]; writable?: string } = {}) {
    const root = fx.tmp();
    const ws = join(root, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    writeFileSync(join(ws, 'log.txt'), 'start\n');
    const extra = opts.extra?.(ws, root) ?? [];
    const env = await fx.startLlm({
      name: 'absolute-paths',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: call('c_view', 'file_editor', { command: 'view', path: join(ws, 'a.txt') }),
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'one' },
          reply: call('c_edit', 'file_editor', {
            command: 'str_replace',
            path: join(ws, 'a.txt'),
            old_str: 'one',
            new_str: 'two',
          }),
        },
        {
          match: { lastRole: 'tool' },
          reply: call('c_create', 'file_editor', {
            command: 'create',
            path: join(ws, 'b.txt'),
            file_text: 'made\n',
          }),
        },
        {
          match: { lastRole: 'tool' },
          reply: call('c_cmd', 'terminal', {
            command: `echo more >> ${join(ws, 'log.txt')} && echo appended`,
          }),
        },
        ...extra.map((reply) => ({ match: { lastRole: 'tool' as const }, reply })),
        { match: { lastRole: 'tool' }, reply: finish('c_f', 'done') },
      ],
    });
    const conv = join(root, 'conv');
    const r = await runCli(
      [
        'run',
        '--workspace',
        ws,
        '--confirm',
        'never',
        '--store',
        conv,
        ...(opts.writable ? ['--writable', join(root, opts.writable)] : []),
        '--task',
        'edit by absolute paths',
      ],
      { env },
    );
    assert.equal(r.code, 0, printed(r));
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'two\n');
    assert.equal(readFileSync(join(ws, 'log.txt'), 'utf8'), 'start\nmore\n');
    await fx.llm?.close();
    fx.llm = undefined;
    return { root, ws, conv };
  }

  /** What the user does after the run: the files back as they were before it. */
  function restore(ws: string): void {
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    writeFileSync(join(ws, 'log.txt'), 'start\n');
    rmSync(join(ws, 'b.txt'));
  }

  it("replays calls with absolute paths in the copy: the user's restored workspace is byte for byte the same", async () => {
    const { ws, conv } = await record();
    restore(ws);
    const before = fingerprint(ws);
    const r = await runCli(['replay', conv]);
    assert.equal(r.code, 0, printed(r));
    assert.equal(r.lines.at(-1), 'replayed 5 actions, no divergence');
    assert.deepEqual(fingerprint(ws), before);
  });

  it('a replay of an unchanged conversation reports no divergence at its first view (it reads the copy)', async () => {
    const { ws, conv } = await record();
    const before = fingerprint(ws);
    const r = await runCli(['replay', conv]);
    assert.equal(r.code, 0, printed(r));
    assert.doesNotMatch(r.stdout, /divergence at/);
    assert.deepEqual(fingerprint(ws), before);
  });

  it('a call whose path leads outside the copy is refused and reported as a divergence', async () => {
    // The recording may write there (a folder the user made writable); a replay never may.
    const { root, ws, conv } = await record({
      writable: 'outside',
      extra: (_ws, at) => {
        mkdirSync(join(at, 'outside'));
        return [
          call('c_out', 'file_editor', {
            command: 'create',
            path: join(at, 'outside', 'x.txt'),
            file_text: 'written outside\n',
          }),
        ];
      },
    });
    assert.ok(existsSync(join(root, 'outside', 'x.txt')), 'the recording wrote it');
    rmSync(join(root, 'outside', 'x.txt'));
    restore(ws);
    const before = fingerprint(ws);
    const r = await runCli(['replay', conv]);
    assert.equal(r.code, 4, printed(r));
    assert.match(r.stdout, /^divergence at event \d+ \(action 5 of 6\): file_editor: /m);
    assert.match(r.stdout, /^ {2}replayed: .*The replay refused this file_editor call/m);
    assert.match(r.stdout, /^ {4}\+ .*leads outside the replay's copy of the workspace/m);
    assert.ok(!existsSync(join(root, 'outside', 'x.txt')), 'nothing written outside the copy');
    assert.deepEqual(fingerprint(ws), before);
  });
});
