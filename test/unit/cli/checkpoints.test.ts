import * as assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { folderHash, treeHashes } from '../checkpoints/tree-hash';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { readSessionInfo } from '../../../src/host/node/cli/session-file';
import { printed, runCli, testCheckpointsDir } from './cli-runner';
import { CliFixture, readLogJson, terminalCall } from './fixtures';

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'U', GIT_AUTHOR_EMAIL: 'u@example.com' };

/** What the agent does, step by step; the test replays the same steps in a twin folder. */
const NOTES = '# Notes\nfirst line\n';
const COMMANDS = [
  'echo data > gen.txt && mkdir -p out && printf x > out/a.bin && echo changed > tracked.txt',
  'echo more >> notes.md && chmod 755 gen.txt && mv out/a.bin out/b.bin && rm stale.txt',
  'git add -A && git -c user.name=Agent -c user.email=agent@example.com commit -qm "agent work" && echo done > after-commit.txt',
];

function sh(cwd: string, command: string): void {
  execSync(command, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...GIT_ENV }, stdio: 'pipe' });
}

/** A workspace that is a git repository with a commit, an ignored file and a stash-free status. */
function seedWorkspace(ws: string): void {
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'tracked.txt'), 'tracked\n');
  writeFileSync(join(ws, 'stale.txt'), 'stale\n');
  writeFileSync(join(ws, '.gitignore'), '*.log\n');
  writeFileSync(join(ws, 'debug.log'), 'ignored\n');
  sh(ws, 'git init -q && git add -A && git -c user.name=U -c user.email=u@example.com commit -qm seed');
}

describe('logbook checkpoints / restore', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('records a checkpoint before each action that can change files; restoring each gives the tree byte for byte', async () => {
    const env = await fx.startLlm({
      name: 'checkpoints',
      turns: [
        {
          reply: {
            toolCalls: [
              {
                id: 'call_create',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: 'notes.md',
                  file_text: NOTES,
                  security_risk: 'LOW',
                  summary: 'notes',
                },
              },
            ],
          },
        },
        ...COMMANDS.map((c, i) => ({
          match: { lastRole: 'tool' as const },
          reply: { toolCalls: [terminalCall(`call_sh${i}`, c)] },
        })),
        {
          match: { lastRole: 'tool' as const },
          reply: {
            toolCalls: [
              {
                id: 'call_view',
                name: 'file_editor',
                arguments: { command: 'view', path: 'notes.md', security_risk: 'LOW', summary: 'view' },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool' as const },
          reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
        },
      ],
    });
    const root = fx.tmp();
    const ws = join(root, 'ws');
    seedWorkspace(ws);
    // The expected state before each action: the same steps replayed in a twin folder.
    const twin = join(root, 'twin');
    seedWorkspace(twin);
    const expected = [treeHashes(twin)];
    writeFileSync(join(twin, 'notes.md'), NOTES);
    for (const c of COMMANDS) {
      expected.push(treeHashes(twin));
      sh(twin, c);
    }
    const final = treeHashes(twin);

    const conv = join(root, 'conv');
    const run = await runCli(
      ['run', '--workspace', ws, '--task', 'go', '--confirm', 'never', '--store', conv],
      {
        env: { ...env, ...GIT_ENV },
      },
    );
    assert.equal(run.code, 0, printed(run));
    assert.deepEqual(treeHashes(ws), final, 'the agent did what the twin did');

    const list = await runCli(['checkpoints', conv, '--json']);
    assert.equal(list.code, 0, printed(list));
    const entries = JSON.parse(list.stdout) as { id: string; action_id: string; files_changed: number }[];
    const events = await readLogJson(conv);
    const actionIds = events
      .filter((e) => e.kind === 'ActionEvent' && e.tool_name !== 'finish' && e.tool_call_id !== 'call_view')
      .map((e) => e.id);
    assert.deepEqual(
      entries.map((e) => e.action_id),
      actionIds,
      'one checkpoint per file-changing action, none for view or finish',
    );
    assert.deepEqual(
      entries.map((e) => e.files_changed),
      [4, 1, 3, 4],
      'first: every file, the ignored one too; then what each step changed',
    );
    const human = await runCli(['checkpoints', conv]);
    assert.match(human.stdout, /files changed/);
    // A header, a row per checkpoint, what "start" means, the line on how to restore; under an
    // action's row, the files it left (its after-action checkpoint), indented.
    assert.equal(human.lines.filter((l) => !l.startsWith(' ')).length, 7, printed(human));
    // The first checkpoint is the starting state, not "4 files changed" before anything changed.
    assert.match(human.lines[1]!, / start {2}file_editor: create notes\.md$/, printed(human));
    assert.match(human.stdout, /"start": the files as the agent found them/);

    const gitBefore = folderHash(join(ws, '.git'));
    // Each checkpoint, newest first and then the first again: byte-identical trees, modes included.
    for (const i of [3, 2, 1, 0, 2]) {
      const r = await runCli(['restore', conv, '--at', entries[i]!.action_id, '--yes']);
      assert.equal(r.code, 0, printed(r));
      assert.deepEqual(treeHashes(ws), expected[i], `state before action ${i}`);
    }
    assert.equal(folderHash(join(ws, '.git')), gitBefore, "restores leave the repository's .git alone");
    assert.equal(
      readFileSync(join(ws, 'debug.log'), 'utf8'),
      'ignored\n',
      'an ignored file is held and stays',
    );

    // Every restore recorded the files before it: the first restore's checkpoint is the final tree.
    const after = JSON.parse((await runCli(['checkpoints', conv, '--json'])).stdout) as {
      id: string;
      reason: string;
      restored_to: string;
    }[];
    const restores = after.filter((e) => e.reason === 'restore');
    assert.equal(restores.length, 5);
    const undo = await runCli(['restore', conv, '--at', restores[0]!.id, '--yes']);
    assert.equal(undo.code, 0, printed(undo));
    assert.deepEqual(treeHashes(ws), final, 'the first restore is undone');

    // Before deleting the conversation: its checkpoints are released (its ref goes; objects other
    // refs reach stay, the rest are pruned once older than an hour).
    const store = new GitCheckpointStore({ workspace: ws, storeDir: storeDirFor(testCheckpointsDir(), ws) });
    const convId = readSessionInfo(conv)!.id;
    assert.equal((await store.held(convId)).length, 10);
    const released = await runCli(['checkpoints', conv, '--release']);
    assert.equal(released.code, 0, printed(released));
    assert.match(released.stdout, /Released the 10 checkpoints/);
    assert.deepEqual(await store.held(convId), []);
  });

  it('lists what a restore will change and asks; "n" changes nothing, "y" restores', async () => {
    const env = await fx.startLlm({
      name: 'checkpoints-ask',
      turns: [
        {
          reply: {
            toolCalls: [
              terminalCall('call_a', 'echo new > new.txt && rm stale.txt && echo edit > tracked.txt'),
            ],
          },
        },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [{ id: 'f', name: 'finish', arguments: { message: 'ok' } }] },
        },
      ],
    });
    const root = fx.tmp();
    const ws = join(root, 'ws');
    seedWorkspace(ws);
    const before = treeHashes(ws);
    const conv = join(root, 'conv');
    const run = await runCli(
      ['run', '--workspace', ws, '--task', 'go', '--confirm', 'never', '--store', conv],
      { env },
    );
    assert.equal(run.code, 0, printed(run));
    const [entry] = JSON.parse((await runCli(['checkpoints', conv, '--json'])).stdout) as { id: string }[];
    // The user writes a file after the agent's command: the preview names it before deleting it.
    writeFileSync(join(ws, 'mine.txt'), 'mine\n');
    const after = treeHashes(ws);

    const no = await runCli(['restore', conv, '--at', entry!.id], { onSpawn: (c) => c.stdin!.end('n\n') });
    assert.equal(no.code, 1, printed(no));
    assert.match(no.stdout, /create\s+stale\.txt\n/);
    assert.match(no.stdout, /overwrite\s+tracked\.txt\n/, 'changed by the agent: not marked');
    assert.match(no.stdout, /delete\s+new\.txt\n/);
    assert.match(no.stdout, /delete\s+mine\.txt {2}\(edited outside the agent after this point\)\n/);
    assert.match(no.stdout, /4 files will change/);
    assert.match(no.stdout, /1 of them was edited outside the agent after this point\.\n/);
    assert.match(no.stderr, /Nothing restored/);
    assert.deepEqual(treeHashes(ws), after);

    const eof = await runCli(['restore', conv, '--at', entry!.id], { onSpawn: (c) => c.stdin!.end() });
    assert.equal(eof.code, 1, 'no answer is no');
    assert.deepEqual(treeHashes(ws), after);

    const yes = await runCli(['restore', conv, '--at', entry!.id], { onSpawn: (c) => c.stdin!.end('y\n') });
    assert.equal(yes.code, 0, printed(yes));
    assert.deepEqual(treeHashes(ws), before);
    assert.match(yes.stdout, /To undo: logbook restore/);

    const again = await runCli(['restore', conv, '--at', entry!.id, '--yes']);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /already match/);

    const unknown = await runCli(['restore', conv, '--at', '00000000-0000-0000-0000-000000000000', '--yes']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No event or checkpoint "00000000/);
  });

  it('restores over a folder that became a symlink; a restore that fails says why and records the way back', async () => {
    const env = await fx.startLlm({
      name: 'checkpoints-symlink',
      turns: [
        { reply: { toolCalls: [terminalCall('call_a', 'echo agent > agent.txt')] } },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [{ id: 'f', name: 'finish', arguments: { message: 'ok' } }] },
        },
      ],
    });
    const root = fx.tmp();
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'src', 'a.txt'), 'one\n');
    const wanted = treeHashes(ws); // the checkpoint before the agent's command
    const conv = join(root, 'conv');
    const run = await runCli(
      ['run', '--workspace', ws, '--task', 'go', '--confirm', 'never', '--store', conv],
      { env },
    );
    assert.equal(run.code, 0, printed(run));
    const [entry] = JSON.parse((await runCli(['checkpoints', conv, '--json'])).stdout) as { id: string }[];

    // The folder is replaced by a link to a folder outside the workspace.
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'elsewhere', 'a.txt'), 'not ours\n');
    rmSync(join(ws, 'src'), { recursive: true });
    symlinkSync(join(root, 'elsewhere'), join(ws, 'src'));
    writeFileSync(join(ws, 'agent.txt'), 'changed\n');

    // Another process holds the store's scratch index: the restore stops with words, not git's text.
    const lock = join(storeDirFor(testCheckpointsDir(), ws), 'restore-index.lock');
    writeFileSync(lock, '');
    const untouched = treeHashes(ws);
    const failed = await runCli(['restore', conv, '--at', entry!.id, '--yes']);
    assert.equal(failed.code, 1, printed(failed));
    assert.match(
      failed.stderr,
      /logbook restore: The files could not all be put back: Unable to create '.*restore-index\.lock': File exists\./,
    );
    assert.doesNotMatch(failed.stderr, /fatal:|error:/);
    assert.deepEqual(treeHashes(ws), untouched, 'it stopped before touching a file');
    const back = /To go back: logbook restore \S+ --at (\S+)/.exec(failed.stderr);
    assert.ok(back, failed.stderr);
    const recorded = (await readLogJson(conv)).filter(
      (e) =>
        (e as { key?: string }).key === 'checkpoint' &&
        (e as { value?: { reason?: string } }).value?.reason === 'restore',
    );
    assert.deepEqual(
      recorded.map((e) => e.id),
      [back[1]],
      'the state before the restore is in the log',
    );
    rmSync(lock);

    const r = await runCli(['restore', conv, '--at', entry!.id, '--yes']);
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stdout, /delete\s+src\s[^]*create\s+src\/a\.txt\s/);
    assert.deepEqual(treeHashes(ws), wanted);
    assert.equal(readFileSync(join(root, 'elsewhere', 'a.txt'), 'utf8'), 'not ours\n');
  });

  it('export-openhands leaves checkpoint events out and keeps the parent chain whole', async () => {
    const env = await fx.startLlm({
      name: 'checkpoints-export',
      turns: [
        { reply: { toolCalls: [terminalCall('call_a', 'echo x > x.txt')] } },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [{ id: 'f', name: 'finish', arguments: { message: 'ok' } }] },
        },
      ],
    });
    const root = fx.tmp();
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const conv = join(root, 'conv');
    assert.equal(
      (
        await runCli(['run', '--workspace', ws, '--task', 'go', '--confirm', 'never', '--store', conv], {
          env,
        })
      ).code,
      0,
    );
    const log = await readLogJson(conv);
    assert.ok(
      log.some((e) => e.key === 'checkpoint'),
      'the log has a checkpoint',
    );
    assert.ok(
      log.some((e) => e.key === 'checkpoint_after'),
      'and the files after the action',
    );
    const out = join(root, 'export');
    const ex = await runCli(['export-openhands', conv, out]);
    assert.equal(ex.code, 0, printed(ex));
    const exported = readdirSync(join(out, 'events'))
      .sort()
      .map((n) => JSON.parse(readFileSync(join(out, 'events', n), 'utf8')) as Record<string, unknown>);
    assert.equal(exported.length, log.length - 2);
    assert.ok(!exported.some((e) => e.key === 'checkpoint' || e.key === 'checkpoint_after'));
    const ids = new Set(exported.map((e) => e.id));
    for (const e of exported.slice(1))
      assert.ok(ids.has(e.parent_id as string), `parent of ${String(e.id)} is exported`);
  });

  it('--no-checkpoints and LOGBOOK_CHECKPOINTS=off record none; a workspace over the limits gets one notice and the agent goes on', async () => {
    const scenario = {
      name: 'checkpoints-off',
      turns: [
        { reply: { toolCalls: [terminalCall('call_a', 'echo a > a.txt')] } },
        {
          match: { lastRole: 'tool' as const },
          reply: { toolCalls: [terminalCall('call_b', 'echo b > b.txt')] },
        },
        {
          match: { lastRole: 'tool' as const },
          reply: { toolCalls: [{ id: 'f', name: 'finish', arguments: { message: 'ok' } }] },
        },
      ],
    };
    const root = fx.tmp();
    for (const [name, extra, args] of [
      ['flag', {}, ['--no-checkpoints']],
      ['env', { LOGBOOK_CHECKPOINTS: 'off' }, []],
    ] as const) {
      const env = await fx.startLlm(scenario);
      const ws = join(root, name);
      mkdirSync(ws);
      const conv = join(root, `${name}-conv`);
      const r = await runCli(
        ['run', '--workspace', ws, '--task', 'go', '--confirm', 'never', '--store', conv, ...args],
        {
          env: { ...env, ...extra },
        },
      );
      assert.equal(r.code, 0, printed(r));
      assert.ok(!(await readLogJson(conv)).some((e) => e.key === 'checkpoint'), name);
    }
    // A file cap the workspace is over: one notice, both commands still run.
    const env = await fx.startLlm(scenario);
    const ws = join(root, 'big');
    mkdirSync(ws);
    const conv = join(root, 'big-conv');
    cpSync(join(__dirname, '..', '..', 'fixtures', 'scenarios'), join(ws, 'many'), { recursive: true });
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'go', '--confirm', 'never', '--store', conv],
      {
        env: { ...env, LOGBOOK_CHECKPOINTS_MAX_FILES: '3' },
      },
    );
    assert.equal(r.code, 0, printed(r));
    assert.ok(existsSync(join(ws, 'a.txt')) && existsSync(join(ws, 'b.txt')), 'the agent kept working');
    const log = await readLogJson(conv);
    const notices = log.filter((e) => e.key === 'checkpoint_unavailable');
    assert.equal(notices.length, 1, 'one notice');
    assert.match(
      String((notices[0]!.value as { message: string }).message),
      /more than checkpoints take \(3\)/,
    );
    assert.match(r.stdout, /\[checkpoint\].*more than checkpoints take/);
  });
});
