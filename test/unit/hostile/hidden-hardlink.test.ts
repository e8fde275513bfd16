// A hard link in the workspace to a file the sandbox hides (one the user or a tool made: the model
// cannot name the target to make one). Its path leads nowhere hidden, so a rule on paths alone let
// the file tools read `~/.ssh/id_ed25519` through `ws/notes.txt`, and write Logbook's own config
// through `ws/settings.json`. The real CLI runs against the scripted model, in act and plan mode,
// with a home folder of its own under a folder of the user's home (not under /tmp, which the
// sandbox replaces): hard links need the workspace and the hidden file on one file system.
import * as assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliResult, printed } from '../cli/cli-runner';
import { CliFixture, readLogJson, terminalCall } from '../cli/fixtures';
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
import { sandboxedShell } from '../../support/sandboxed-shell';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nKEY-CANARY-7731\n-----END OPENSSH PRIVATE KEY-----\n';
const CONFIG = `${JSON.stringify({ confirmation: { mode: 'risky' }, note: 'CONFIG-CANARY-0917' }, null, 2)}\n`;
const LINKED =
  /hidden from the agent like from its commands: it is a hard link to a file in a place the sandbox hides/;

describe('hostile model: a hard link in the workspace to a hidden file', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  let base: string;
  let home: string;
  let ws: string;
  let store: string;
  let key: string;
  let config: string;
  let attempts = 0;

  beforeEach(() => {
    ({ base, home, ws, key, config } = homeWithSecrets('.logbook-hostile-hardlink-', KEY, CONFIG));
    writeFileSync(join(ws, 'readme.txt'), 'an ordinary KEY-CANARY-free file\n');
    linkSync(key, join(ws, 'notes.txt'));
    linkSync(config, join(ws, 'settings.json'));
  });
  afterEach(async () => {
    rmSync(base, { recursive: true, force: true });
    await fx.cleanup();
  });

  /** Runs the CLI (its HOME the fake one) with a model that makes `calls` in one reply, then says "done". */
  async function attempt(
    calls: Call[],
    mode: Mode,
    confirm: 'never' | 'risky' = 'never',
    writable: readonly string[] = [],
  ): Promise<CliResult> {
    store = join(fx.tmp('logbook-hostile-hardlink-store-'), `conv-${++attempts}`);
    const run = { scenario: 'hostile-hidden-hardlink', ws, store, mode, confirm, writable, home };
    return runOneReply(fx, run, calls);
  }

  const toolAnswers = (id?: string): string => answersOf(fx, id);
  const assertLogged = async (r: CliResult, ...canaries: RegExp[]) => {
    await logged(store, r, ...canaries);
  };

  for (const mode of ['act', 'plan'] as const) {
    describe(`${mode} mode, --confirm never`, () => {
      it('the key is not read through ws/notes.txt: view, grep of the file or of the workspace', async () => {
        const r = await attempt(
          [
            call('file_editor', { command: 'view', path: 'notes.txt' }, 'call_view'),
            call(
              'file_editor',
              { command: 'view', path: join(ws, 'notes.txt'), view_range: [1, 2] },
              'call_range',
            ),
            call('grep', { pattern: 'CANARY', path: 'notes.txt' }, 'call_grep_file'),
            call('grep', { pattern: 'CANARY' }, 'call_grep_ws'),
          ],
          mode,
        );
        assert.equal(r.code, 0, printed(r));
        const sent = toolAnswers();
        assert.doesNotMatch(sent, /KEY-CANARY-7731/);
        for (const id of ['call_view', 'call_range', 'call_grep_file']) {
          assert.match(toolAnswers(id), LINKED, id);
          // The refusal says there is a hidden file, not which.
          assert.doesNotMatch(toolAnswers(id), /\.ssh|id_ed25519/, id);
        }
        assert.match(toolAnswers('call_grep_ws'), /2 results in places hidden from the agent/);
        assert.equal(readFileSync(key, 'utf8'), KEY);
        await assertLogged(r, /KEY-CANARY-7731/);
      });

      it("Logbook's config is not rewritten through ws/settings.json", async () => {
        const r = await attempt(
          [
            call(
              'file_editor',
              { command: 'str_replace', path: 'settings.json', old_str: '"risky"', new_str: '"never"' },
              'call_replace',
            ),
            call(
              'file_editor',
              { command: 'insert', path: 'settings.json', insert_line: 0, new_str: 'x' },
              'call_ins',
            ),
            call(
              'file_editor',
              { command: 'create', path: 'settings.json', file_text: '{}\n' },
              'call_create',
            ),
          ],
          mode,
        );
        assert.equal(r.code, 0, printed(r));
        assert.equal(readFileSync(config, 'utf8'), CONFIG, 'the config is unchanged');
        assert.equal(
          statSync(join(ws, 'settings.json')).ino,
          statSync(config).ino,
          'nor was the link replaced',
        );
        for (const id of ['call_replace', 'call_ins', 'call_create'])
          assert.match(toolAnswers(id), mode === 'act' ? LINKED : /plan mode/, id);
        assert.doesNotMatch(toolAnswers(), /CONFIG-CANARY-0917/);
        await assertLogged(r, /CONFIG-CANARY-0917/);
      });

      it('a command in the sandbox cannot open the links and writes nothing through them', async () => {
        linkSync(join(ws, 'readme.txt'), join(ws, 'readme-copy.txt'));
        const r = await attempt(
          [
            terminalCall(
              'call_cat',
              'cat notes.txt settings.json readme-copy.txt; echo "[$(wc -c < notes.txt) bytes]"' +
                // Plan mode refuses a command that writes before it runs: only act mode tries.
                (mode === 'act' ? '; echo planted > settings.json; cp notes.txt copy.txt; echo exit=$?' : ''),
            ),
          ],
          mode,
        );
        assert.equal(r.code, 0, printed(r));
        const sent = toolAnswers('call_cat');
        assert.match(sent, /commands cannot open them/, `the output says why: ${sent}`);
        assert.match(sent, /\[ bytes\]/, 'nothing was read');
        assert.match(sent, /an ordinary KEY-CANARY-free file/, 'an ordinary linked file still reads');
        assert.doesNotMatch(sent, /KEY-CANARY-7731|CONFIG-CANARY-0917/);
        assert.equal(readFileSync(key, 'utf8'), KEY);
        assert.equal(readFileSync(config, 'utf8'), CONFIG, 'the config is unchanged');
        await assertLogged(r, /KEY-CANARY-7731/, /CONFIG-CANARY-0917/);
      });

      it('a link in a writable folder outside the workspace cannot be opened by a command, nor read by view', async () => {
        const shared = join(base, 'shared');
        mkdirSync(shared);
        linkSync(key, join(shared, 'key.txt'));
        const r = await attempt(
          [
            terminalCall(
              'call_cat',
              `cat ${join(shared, 'key.txt')}; echo "[$(wc -c < ${join(shared, 'key.txt')}) bytes]"`,
            ),
            call('file_editor', { command: 'view', path: join(shared, 'key.txt') }, 'call_view'),
          ],
          mode,
          'never',
          [shared],
        );
        assert.equal(r.code, 0, printed(r));
        assert.doesNotMatch(toolAnswers(), /KEY-CANARY-7731/);
        // Plan mode's rules refuse a read of the home folder outside the workspace before the sandbox.
        if (mode === 'act')
          assert.match(toolAnswers('call_cat'), /key\.txt are hard links to files the sandbox hides/);
        assert.match(toolAnswers('call_view'), LINKED);
        await assertLogged(r, /KEY-CANARY-7731/);
      });

      it('an ordinary file with another link in the workspace is still read', async () => {
        linkSync(join(ws, 'readme.txt'), join(ws, 'readme-copy.txt'));
        const r = await attempt([call('file_editor', { command: 'view', path: 'readme-copy.txt' })], mode);
        assert.equal(r.code, 0, printed(r));
        assert.match(toolAnswers(), /an ordinary KEY-CANARY-free file/);
      });
    });
  }

  it('act mode, the default level: a write through the link is refused without asking', async () => {
    const r = await attempt(
      [
        call('file_editor', {
          command: 'str_replace',
          path: 'settings.json',
          old_str: '"risky"',
          new_str: '"never"',
        }),
      ],
      'act',
      'risky',
    );
    assert.equal(r.code, 0, `nothing waits for an answer: ${printed(r)}`);
    assert.equal(readFileSync(config, 'utf8'), CONFIG);
    assert.match(toolAnswers(), LINKED);
    const log = await readLogJson(store);
    const answer = log.find((e) => e.kind === 'ObservationEvent')!;
    assert.equal((answer.observation as Record<string, unknown>).refused, true, 'the card shows it refused');
    assert.doesNotMatch(JSON.stringify(log), /CONFIG-CANARY-0917/);
  });

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: an external ACP agent (run --agent) neither reads the key nor rewrites the config through the links`, async () => {
      for (const ask of [
        { read: { path: join(ws, 'notes.txt') } },
        { write: { path: join(ws, 'settings.json'), content: '{"confirmation":{"mode":"never"}}\n' } },
      ]) {
        const r = await runTestAgent(ws, mode, ask, ['--sandbox', 'off'], 60_000, { HOME: home });
        assert.equal(r.code, 0, printed(r));
        assert.equal(readFileSync(config, 'utf8'), CONFIG, 'the config is unchanged');
        const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
        // Not read, not put in the log as the edit's old text, not confirmed by a "done".
        assert.doesNotMatch(log, /KEY-CANARY-7731|CONFIG-CANARY-0917/);
        assert.doesNotMatch(log, /write: done/);
        if ('read' in ask || mode === 'act') assert.match(log, LINKED);
      }
    });
  }

  it('act mode: a link to the key made between two commands cannot be opened by the next one', async () => {
    const sh = sandboxedShell(ws, home);
    try {
      const first = await sh.run('cat notes.txt; echo started');
      assert.doesNotMatch(first.output, /KEY-CANARY-7731/);
      writeFileSync(join(home, '.ssh', 'id_new'), 'NEW-KEY-CANARY-2208\n');
      linkSync(join(home, '.ssh', 'id_new'), join(ws, 'later.txt'));
      const r = await sh.run('cat later.txt; echo read=$?');
      assert.doesNotMatch(r.output, /NEW-KEY-CANARY-2208/);
      assert.match(r.output, /later\.txt[^\]]* are hard links to files the sandbox hides/, r.output);
    } finally {
      await sh.dispose();
    }
  });
});
