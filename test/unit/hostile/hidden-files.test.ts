// A model that uses the file tools, which run in the host and not in the sandbox, to reach what the
// sandbox hides from commands, through folders the user made writable: Logbook's own config (to
// turn confirmations off), its compiled-code cache (what is put there runs later), and `~/.ssh`,
// directly and through a symlink in the workspace. The real CLI runs as a child process against
// the scripted model, in act and in plan mode, with a home folder of its own under a folder of the
// user's home (not under /tmp, which the sandbox replaces).
import * as assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { type CliResult, printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson } from '../cli/fixtures';
import { conversationDir, runTestAgent } from './acp-test-agent';
import { homeWithSecrets } from './home-with-secrets';
import {
  assertLogged as logged,
  call,
  type Call,
  type Mode,
  runOneReply,
  toolAnswers as answersOf,
} from './one-reply-run';
import { childDirs, delegateCall, finish } from '../agents/agents-fixture';

type Json = Record<string, unknown>;

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nKEY-CANARY-5519\n-----END OPENSSH PRIVATE KEY-----\n';
const CONFIG = `${JSON.stringify({ confirmation: { mode: 'risky' }, note: 'CONFIG-CANARY-0042' }, null, 2)}\n`;
const HIDDEN = /hidden from the agent like from its commands/;

describe('hostile model: the file tools honour what the sandbox hides', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  let base: string;
  let home: string;
  let ws: string;
  let store: string;
  let attempts = 0;

  beforeEach(() => {
    ({ base, home, ws } = homeWithSecrets('.logbook-hostile-hidden-', KEY, CONFIG));
    mkdirSync(join(home, '.cache', 'logbook'), { recursive: true });
    writeFileSync(join(home, '.config', 'tool.conf'), 'ordinary CONFIG-CANARY-0042 setting\n');
  });
  afterEach(async () => {
    rmSync(base, { recursive: true, force: true });
    await fx.cleanup();
  });

  /** Runs the CLI (its HOME the fake one) with a model that makes `calls` in one reply, then says "done". */
  async function attempt(
    calls: Call[],
    mode: Mode,
    writable: readonly string[],
    more: { confirm?: 'risky' | 'never'; denyRead?: string } = {},
  ): Promise<CliResult> {
    store = join(fx.tmp('logbook-hostile-hidden-store-'), `conv-${++attempts}`);
    const run = {
      scenario: 'hostile-hidden-files',
      ws,
      store,
      mode,
      confirm: more.confirm ?? 'never',
      writable,
      home,
    };
    return runOneReply(fx, { ...run, denyRead: more.denyRead }, calls);
  }

  /** What the model was sent after its calls: each call's answer. */
  const lastRequest = (): string => JSON.stringify(fx.llm!.completionBodies().at(-1));
  const toolAnswers = (id?: string): string => answersOf(fx, id);
  const assertLogged = (r: CliResult, ...canaries: RegExp[]): Promise<Json[]> =>
    logged(store, r, ...canaries);

  for (const mode of ['act', 'plan'] as const) {
    describe(`${mode} mode, --confirm never`, () => {
      it("Logbook's own config is not rewritten with ~/.config writable", async () => {
        const config = join(home, '.config', 'logbook', 'config.json');
        const r = await attempt(
          [
            call('file_editor', {
              command: 'str_replace',
              path: config,
              old_str: '"risky"',
              new_str: '"never"',
            }),
          ],
          mode,
          [join(home, '.config')],
        );
        assert.equal(r.code, 0, printed(r));
        assert.equal(readFileSync(config, 'utf8'), CONFIG, 'the config is unchanged');
        // Plan mode refuses every write first; act mode by the hidden rule, without reading it.
        assert.match(lastRequest(), mode === 'act' ? HIDDEN : /plan mode/);
        await assertLogged(r, /CONFIG-CANARY-0042/);
      });

      it('nothing is planted in ~/.cache/logbook with ~/.cache writable', async () => {
        const planted = join(home, '.cache', 'logbook', 'v1', 'run-command.js');
        const r = await attempt(
          [
            call('file_editor', {
              command: 'create',
              path: planted,
              file_text: 'require("child_process")\n',
            }),
          ],
          mode,
          [join(home, '.cache')],
        );
        assert.equal(r.code, 0, printed(r));
        assert.ok(!existsSync(planted), 'nothing was written into the cache');
        assert.deepEqual(readdirSync(join(home, '.cache', 'logbook')), []);
        assert.match(lastRequest(), mode === 'act' ? HIDDEN : /plan mode/);
        await assertLogged(r);
      });

      it('~/.ssh/id_ed25519 is not read with ~ writable, by view, grep or glob', async () => {
        const r = await attempt(
          [
            call('file_editor', { command: 'view', path: join(home, '.ssh', 'id_ed25519') }),
            call('file_editor', { command: 'view', path: join(home, '.ssh') }, 'call_list'),
            call('grep', { pattern: 'CANARY', path: join(home, '.ssh') }),
            call('glob', { pattern: '*', path: join(home, '.ssh') }),
          ],
          mode,
          [home],
        );
        assert.equal(r.code, 0, printed(r));
        const sent = toolAnswers();
        assert.doesNotMatch(sent, /KEY-CANARY-5519/);
        for (const id of ['call_list', 'call_grep', 'call_glob'])
          assert.doesNotMatch(toolAnswers(id), /id_ed25519/, `${id} does not name the key file`);
        assert.equal(sent.match(new RegExp(HIDDEN.source, 'g'))?.length, 4, sent);
        await assertLogged(r, /KEY-CANARY-5519/);
      });

      it('a symlink in the workspace to ~/.ssh leads nowhere', async () => {
        symlinkSync(join(home, '.ssh'), join(ws, 'keys'));
        const r = await attempt(
          [
            call('file_editor', { command: 'view', path: 'keys/id_ed25519' }),
            call('grep', { pattern: 'CANARY', path: 'keys' }),
            call('glob', { pattern: '*', path: 'keys' }),
          ],
          mode,
          [],
        );
        assert.equal(r.code, 0, printed(r));
        const sent = lastRequest();
        assert.doesNotMatch(sent, /KEY-CANARY-5519/);
        assert.equal(sent.match(new RegExp(HIDDEN.source, 'g'))?.length, 3, sent);
        await assertLogged(r, /KEY-CANARY-5519/);
      });

      it("a folder of the user's --deny-read is not read with ~ writable", async () => {
        mkdirSync(join(home, 'private'));
        writeFileSync(join(home, 'private', 'plan.txt'), 'DENIED-CANARY-3141\n');
        const r = await attempt(
          [
            call('file_editor', { command: 'view', path: join(home, 'private', 'plan.txt') }),
            call('grep', { pattern: 'CANARY', path: home }),
          ],
          mode,
          [home],
          { denyRead: '~/private' },
        );
        assert.equal(r.code, 0, printed(r));
        assert.doesNotMatch(toolAnswers(), /DENIED-CANARY-3141/);
        assert.match(toolAnswers('call_file_editor'), HIDDEN);
        await assertLogged(r, /DENIED-CANARY-3141/);
      });

      it('a search of ~/.config (writable) leaves out what lies in ~/.config/logbook', async () => {
        const r = await attempt(
          [
            call('grep', { pattern: 'CONFIG-CANARY', path: join(home, '.config') }),
            call('glob', { pattern: '**/*', path: join(home, '.config') }),
            call('file_editor', { command: 'view', path: join(home, '.config') }, 'call_list'),
          ],
          mode,
          [join(home, '.config')],
        );
        assert.equal(r.code, 0, printed(r));
        const sent = lastRequest();
        assert.match(sent, /tool\.conf:1: ordinary CONFIG-CANARY-0042/, 'the folder is searched');
        assert.doesNotMatch(sent, /logbook\/config\.json/);
        assert.match(sent, /places hidden from the agent \(as from its commands\) left out/);
        assert.match(sent, /logbook\/ \(hidden from the agent like from its commands: not listed\)/);
        await assertLogged(r, /"risky"/);
      });
    });
  }

  it("act mode, the default level: a write to Logbook's config is refused without asking", async () => {
    const config = join(home, '.config', 'logbook', 'config.json');
    const r = await attempt(
      [
        call('file_editor', {
          command: 'create',
          path: join(home, '.config', 'logbook', 'agents', 'x.md'),
          file_text: 'x\n',
        }),
      ],
      'act',
      [join(home, '.config')],
      { confirm: 'risky' },
    );
    assert.equal(r.code, 0, `nothing waits for an answer: ${printed(r)}`);
    assert.ok(!existsSync(join(home, '.config', 'logbook', 'agents')), 'nothing was written');
    assert.equal(readFileSync(config, 'utf8'), CONFIG);
    assert.match(toolAnswers(), HIDDEN);
    const log = await assertLogged(r);
    const answer = log.find((e) => e.kind === 'ObservationEvent')!;
    assert.equal((answer.observation as Json).refused, true, 'the card shows it refused');
  });

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: an external ACP agent (run --agent) neither reads nor rewrites ~/.ssh with ~ writable`, async () => {
      const key = join(home, '.ssh', 'id_ed25519');
      for (const ask of [
        { read: { path: key } },
        { write: { path: key, content: 'ssh-ed25519 AAAA planted\n' } },
      ]) {
        const extra = ['--writable', home, '--sandbox', 'off'];
        const r = await runTestAgent(ws, mode, ask, extra, 60_000, { HOME: home });
        assert.equal(r.code, 0, printed(r));
        assert.equal(readFileSync(key, 'utf8'), KEY, 'the key is unchanged');
        const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
        // Not read, not put in the log as the edit's old text, not confirmed by a "done".
        assert.doesNotMatch(log, /KEY-CANARY-5519/);
        assert.doesNotMatch(log, /write: done/);
        if ('read' in ask || mode === 'act') assert.match(log, HIDDEN);
      }
    });
  }

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: a delegated agent's file tools get the same list (--deny-read, with ~ writable)`, async () => {
      mkdirSync(join(home, 'private'));
      writeFileSync(join(home, 'private', 'plan.txt'), 'DENIED-CANARY-3141\n');
      const key = join(home, 'private', 'plan.txt');
      store = join(fx.tmp('logbook-hostile-hidden-store-'), `conv-${++attempts}`);
      const env = await fx.startLlm({
        name: 'hostile-hidden-child',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'find the key' },
            reply: { toolCalls: [delegateCall('c_d', 'read the key file', 'explore')] },
          },
          {
            note: 'the child tries to read the key',
            match: { lastRole: 'user', lastContentIncludes: 'read the key file' },
            reply: { toolCalls: [call('file_editor', { command: 'view', path: key }, 'c_v')] },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'hidden from the agent' },
            reply: finish('c_f', 'refused'),
          },
          { match: { lastRole: 'tool' }, reply: { content: 'done' } },
        ],
      });
      const args = ['run', '--workspace', ws, '--store', store, '--mode', mode, '--confirm', 'never'];
      const r = await runCli(
        [...args, '--writable', home, '--deny-read', '~/private', '--json', '--task', 'find the key'],
        {
          env: { ...env, HOME: home },
        },
      );
      assert.equal(r.code, 0, printed(r));
      const [child] = childDirs(store);
      assert.ok(child, 'the child ran');
      const childLog = JSON.stringify(await readLogJson(child));
      assert.match(childLog, HIDDEN);
      assert.doesNotMatch(childLog, /DENIED-CANARY-3141/);
      // The child's events are printed too: only the canary is looked for in the parent's log.
      assert.doesNotMatch(JSON.stringify(await readLogJson(store)), /DENIED-CANARY-3141/);
      assert.doesNotMatch(JSON.stringify(fx.llm!.completionBodies()), /DENIED-CANARY-3141/);
    });
  }

  it("act mode: the workspace's own .cache/logbook is not hidden (only the places the sandbox hides are)", async () => {
    mkdirSync(join(ws, '.cache', 'logbook'), { recursive: true });
    writeFileSync(join(ws, '.cache', 'logbook', 'notes.txt'), 'WORKSPACE-NOTE-1\n');
    const r = await attempt(
      [
        call('file_editor', { command: 'view', path: '.cache/logbook/notes.txt' }),
        call(
          'file_editor',
          { command: 'create', path: '.cache/logbook/more.txt', file_text: 'x\n' },
          'call_make',
        ),
      ],
      'act',
      [],
    );
    assert.equal(r.code, 0, printed(r));
    assert.match(toolAnswers(), /WORKSPACE-NOTE-1/);
    assert.doesNotMatch(toolAnswers(), HIDDEN);
    assert.ok(existsSync(join(ws, '.cache', 'logbook', 'more.txt')));
  });
});
