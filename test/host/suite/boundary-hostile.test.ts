// The hostile model of issue 47, driven through the chat in the real extension host: the scripted
// model sends each finding's tool calls, in act and in plan mode, with confirmations off (so nothing
// asks and the boundary itself is what holds), and the test checks the effect on disk and in the
// log. Also here: a held folder the user deletes while the conversation's shell runs, an act-mode
// agent reached from plan mode by delegate or handoff, and the editor's Verify Conversation on a
// signed log whose signatures.log was deleted. Findings other host suites already drive through the
// editor are not repeated: the shell's memory (fresh-shell, shell-hooks), settings files the agent
// writes (workspace-settings, path-boundary), agent definitions it writes (agent-trust), verify
// after a cut child log or two handoffs (verify-children, verify-handoffs), replay's paths
// (replay-children), a symlink flipped between the question and the write (symlink-flip).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentMode } from '../../../src/core/state';
import type { VerifyOutcome } from '../../../src/host/vscode/signing/verify';
import type { ReplayReport } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import type { Reply, ScriptedToolCall, TurnMatch } from '../../support/llm-server/scenario';
import { EXTENSION_ID, logbook, scriptedModel, until, workspaceRoot } from './helpers';

/**
 * Outside the workspace where the sandbox still sees it (read-only): not under /tmp (private inside
 * the sandbox) nor the home folder (empty inside), but in the repository's ignored test-results/.
 */
const outsideDir = join(
  vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
  'test-results',
  `boundary-hostile-${process.pid}`,
);
const ORIGINAL = 'written by the test\n';

const terminal = (command: string): ScriptedToolCall => ({
  name: 'terminal',
  arguments: { command, security_risk: 'LOW', summary: 'look around' },
});

interface Case {
  finding: string;
  /** Planted by the test before the conversation starts; returns what the run must not change. */
  arrange: (ws: string, dir: string) => void | Promise<void>;
  calls: (ws: string, dir: string) => ScriptedToolCall[];
  /** Each field is compared to `expected`, so every check is reported even when one fails. */
  observe: (
    ws: string,
    dir: string,
    log: string,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
  expected: Record<string, unknown>;
  cleanup?: (ws: string, dir: string) => void | Promise<void>;
}

const SECRET = `sk-hostile-home-${process.pid}-5f3a`;
const homeSecret = () => join(homedir(), `.logbook-hostile-secret-${process.pid}`);

let server: ReturnType<typeof createServer> | undefined;
let connections = 0;

const cases: Case[] = [
  {
    finding: 'a secret in the home folder that no list names is neither read nor recorded',
    arrange: () => writeFileSync(homeSecret(), `token=${SECRET}\n`, { mode: 0o600 }),
    calls: () => [terminal(`cat ${homeSecret()}; ls -a ~`)],
    observe: (_ws, _dir, log) => ({ recorded: log.includes(SECRET), stillThere: existsSync(homeSecret()) }),
    expected: { recorded: false, stillThere: true },
    cleanup: () => rmSync(homeSecret(), { force: true }),
  },
  {
    finding: 'file_editor create outside the workspace writes nothing there',
    arrange: () => undefined,
    calls: (_ws, dir) => [
      {
        name: 'file_editor',
        arguments: {
          command: 'create',
          path: join(dir, 'made-by-file-tool.txt'),
          file_text: 'escaped\n',
          security_risk: 'LOW',
        },
      },
    ],
    observe: (_ws, dir) => ({ outside: existsSync(join(dir, 'made-by-file-tool.txt')) }),
    expected: { outside: false },
  },
  {
    finding: ".git/commondir pointing at a config of the model's runs nothing for the user's git",
    arrange: (ws, dir) => {
      spawnSync('git', ['init', '-q', ws]);
      const evil = join(dir, 'evil-git');
      spawnSync('git', ['init', '-q', '--bare', evil]);
      spawnSync('git', [
        '-C',
        evil,
        'config',
        'core.fsmonitor',
        `touch ${join(dir, 'fsmonitor-ran')}; false`,
      ]);
    },
    calls: (_ws, dir) => [terminal(`echo ${join(dir, 'evil-git')} > .git/commondir; cat .git/commondir`)],
    observe: (ws, dir) => {
      // The user's own git, as the editor's git extension runs it by itself.
      spawnSync('git', ['-C', ws, 'status', '--short'], { encoding: 'utf8' });
      return {
        ran: existsSync(join(dir, 'fsmonitor-ran')),
        commondir: existsSync(join(ws, '.git', 'commondir')),
      };
    },
    expected: { ran: false, commondir: false },
    cleanup: (ws) => rmSync(join(ws, '.git'), { recursive: true, force: true }),
  },
  {
    finding: 'protected folders that do not exist yet cannot be made: .logbook/agents and .vscode/tasks.json',
    arrange: async (ws) => {
      // An earlier conversation of this window holds the empty placeholders its sandbox made; the
      // user then deletes the stray empty folders.
      await hostileRun('hostile-earlier', 'act', [terminal('echo started')]);
      rmSync(join(ws, '.logbook'), { recursive: true, force: true });
      rmSync(join(ws, '.vscode'), { recursive: true, force: true });
    },
    calls: () => [
      terminal(
        "mkdir -p .logbook/agents && printf -- '---\\nname: helper\\ndescription: h\\nmode: act\\n---\\nx\\n' > .logbook/agents/helper.md; " +
          'mkdir -p .vscode && echo \'{"version":"2.0.0","tasks":[{"label":"x","command":"true","runOptions":{"runOn":"folderOpen"}}]}\' > .vscode/tasks.json; echo done',
      ),
    ],
    observe: (ws) => ({
      agent: existsSync(join(ws, '.logbook', 'agents', 'helper.md')),
      tasks: existsSync(join(ws, '.vscode', 'tasks.json')),
    }),
    expected: { agent: false, tasks: false },
    cleanup: (ws) => {
      rmSync(join(ws, '.logbook'), { recursive: true, force: true });
      rmSync(join(ws, '.vscode'), { recursive: true, force: true });
    },
  },
  {
    finding: 'a Unix socket listening outside the workspace cannot be reached',
    arrange: async (_ws, dir) => {
      connections = 0;
      server = createServer((c) => {
        connections++;
        c.on('error', () => undefined);
        c.end('host-process-answered\n');
      });
      await new Promise<void>((resolve) => server!.listen(join(dir, 'host.sock'), resolve));
    },
    calls: (_ws, dir) => [
      terminal(
        `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${join(dir, 'host.sock')}'); print(s.recv(64).decode())"`,
      ),
    ],
    observe: (_ws, _dir, log) => ({ answered: log.includes('host-process-answered'), connections }),
    expected: { answered: false, connections: 0 },
    cleanup: async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
  },
  {
    finding: 'a workspace file hard-linked outside before the run: appending to it leaves the outside file',
    arrange: (ws, dir) => {
      writeFileSync(join(dir, 'linked-outside.txt'), ORIGINAL);
      linkSync(join(dir, 'linked-outside.txt'), join(ws, 'linked.txt'));
    },
    calls: () => [terminal('echo appended >> linked.txt; cat linked.txt')],
    observe: (_ws, dir) => ({ outside: readFileSync(join(dir, 'linked-outside.txt'), 'utf8') }),
    expected: { outside: ORIGINAL },
    cleanup: (ws) => rmSync(join(ws, 'linked.txt'), { force: true }),
  },
];

/** Runs one conversation in `mode` in which the model sends `calls`, then finishes. */
async function hostileRun(
  name: string,
  mode: AgentMode,
  calls: ScriptedToolCall[],
  more: Array<{ match: TurnMatch; reply: Reply }> = [],
) {
  const llm: ScriptedLlm = await scriptedModel({
    name,
    turns: [
      { match: { lastRole: 'user' }, reply: { toolCalls: calls } },
      ...more,
      { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
    ],
    fallback: { content: 'Done.' },
  });
  try {
    const { service } = await logbook();
    await service.setActive(undefined);
    await service.sendMessage(`Hostile case: ${name}`, undefined, mode);
    await until(() => service.activeId !== undefined, 'a new conversation');
    const session = await service.session(service.activeId!);
    await until(() => llm.remainingTurns() === 0, 'the model was answered');
    await session.settled();
    const events = await session.conversation.events();
    const seen = events.filter((e) => e.kind === 'ObservationEvent' || e.kind === 'AgentErrorEvent');
    return { session, log: JSON.stringify(events), seen: JSON.stringify(seen).slice(0, 4000) };
  } finally {
    await llm.close();
  }
}

describe('boundary-hostile: the findings of issue 47 through the chat', function () {
  this.timeout(90_000);
  before(async () => {
    mkdirSync(outsideDir, { recursive: true });
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    // The commondir case makes the workspace a repository for a moment; the editor's own git
    // would keep polling it after it is gone. The test runs the user's git itself.
    await vscode.workspace
      .getConfiguration('git')
      .update('enabled', false, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace
      .getConfiguration('git')
      .update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    rmSync(outsideDir, { recursive: true, force: true });
  });

  for (const mode of ['act', 'plan'] as const) {
    for (const c of cases) {
      it(`${mode} mode: ${c.finding}`, async () => {
        const ws = workspaceRoot();
        const dir = join(outsideDir, `${mode}-${cases.indexOf(c)}`);
        mkdirSync(dir, { recursive: true });
        try {
          await c.arrange(ws, dir);
          const { session, log, seen } = await hostileRun(
            `hostile-${mode}-${cases.indexOf(c)}`,
            mode,
            c.calls(ws, dir),
          );
          assert.equal(session.conversation.state.mode, mode, 'the mode held');
          assert.deepEqual(await c.observe(ws, dir, log), c.expected, seen);
        } finally {
          await c.cleanup?.(ws, dir);
        }
      });
    }
  }

  it('act mode: a held folder the user removes between two commands of one conversation stays held', async () => {
    const ws = workspaceRoot();
    rmSync(join(ws, '.vscode'), { recursive: true, force: true });
    const llm = await scriptedModel({
      name: 'hostile-removed-midway',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminal('echo first')] } },
        {
          match: { lastRole: 'tool' },
          reply: {
            holdUntilReleased: 'removed',
            toolCalls: [terminal("mkdir -p .vscode && echo '{}' > .vscode/tasks.json; echo done")],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
      fallback: { content: 'Done.' },
    });
    try {
      const { service } = await logbook();
      await service.setActive(undefined);
      await service.sendMessage('Hostile case: removed midway', undefined, 'act');
      await until(() => llm.remainingTurns() <= 1, 'the first command ran');
      const placeholder = existsSync(join(ws, '.vscode'));
      // The user deletes the empty folder that appeared, while the conversation's shell runs.
      rmSync(join(ws, '.vscode'), { recursive: true, force: true });
      llm.release('removed');
      await until(() => llm.remainingTurns() === 0, 'the second command ran');
      const session = await service.session(service.activeId!);
      await session.settled();
      const seen = (await session.conversation.events()).filter((e) => e.kind === 'ObservationEvent');
      assert.deepEqual(
        { placeholder, tasks: existsSync(join(ws, '.vscode', 'tasks.json')) },
        { placeholder: true, tasks: false },
        JSON.stringify(seen).slice(0, 4000),
      );
    } finally {
      await llm.close();
      rmSync(join(ws, '.vscode'), { recursive: true, force: true });
    }
  });

  it("the editor's Verify Conversation: a deleted signatures.log of a signed conversation is tampering, not unsigned", async () => {
    const llm = await scriptedModel({
      name: 'hostile-verify-deleted-signatures',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] },
        },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Finish at once');
    try {
      const session = await service.session(id);
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      rmSync(join(service.root, id, 'signatures.log'));
      const v = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.deepEqual(
        { verdict: v.result.verdict, unsignedWords: /without signatures/.test(v.message) },
        { verdict: 'broken', unsignedWords: false },
        v.message,
      );
    } finally {
      await llm.close();
      await service.delete(id);
    }
  });

  it("the editor's Replay Conversation: recorded absolute paths are replayed in the copy; the restored workspace keeps every byte", async () => {
    const ws = workspaceRoot();
    const made = join(ws, 'replay-made.txt');
    const edited = join(ws, 'replay-edited.txt');
    writeFileSync(edited, ORIGINAL);
    const llm = await scriptedModel({
      name: 'hostile-replay-absolute',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: made,
                  file_text: 'by the agent\n',
                  security_risk: 'LOW',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool' },
          reply: {
            toolCalls: [
              {
                name: 'file_editor',
                arguments: {
                  command: 'str_replace',
                  path: edited,
                  old_str: 'written by the test',
                  new_str: 'changed by the agent',
                  security_risk: 'LOW',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>(
      'logbook.startTask',
      'Make and edit by absolute path',
    );
    try {
      const session = await service.session(id);
      await until(() => llm.remainingTurns() === 0, 'the model was answered');
      await session.settled();
      assert.equal(readFileSync(edited, 'utf8'), 'changed by the agent\n');
      // The user restores the files, then replays the conversation.
      rmSync(made);
      writeFileSync(edited, ORIGINAL);
      const report = await vscode.commands.executeCommand<ReplayReport>('logbook.replayConversation', id, {
        confirmed: true,
      });
      assert.deepEqual(
        { made: existsSync(made), edited: readFileSync(edited, 'utf8'), outcome: report.outcome },
        { made: false, edited: ORIGINAL, outcome: 'same' },
        JSON.stringify(report),
      );
    } finally {
      await llm.close();
      await service.delete(id);
      rmSync(made, { force: true });
      rmSync(edited, { force: true });
    }
  });

  describe('plan mode stays plan through another agent', () => {
    const made = () => join(workspaceRoot(), 'made-by-act-agent.txt');
    const create = (id: string): ScriptedToolCall => ({
      id,
      name: 'file_editor',
      arguments: { command: 'create', path: made(), file_text: 'acted\n', security_risk: 'LOW' },
    });
    beforeEach(() => {
      const dir = join(workspaceRoot(), '.logbook', 'agents');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'doer.md'),
        '---\nname: doer\ndescription: Does.\ntools: [file_editor, terminal, think]\nmode: act\n---\nDo it.\n',
      );
    });
    afterEach(() => {
      rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
      rmSync(made(), { force: true });
    });

    it('plan mode: a delegated act agent writes nothing in the workspace', async () => {
      const { session, seen } = await hostileRun(
        'hostile-plan-delegate',
        'plan',
        [
          {
            name: 'delegate',
            arguments: {
              command: 'delegate',
              ids: ['d'],
              agent_types: ['doer'],
              tasks: { d: 'make the file now' },
            },
          },
        ],
        [
          {
            match: { lastRole: 'user', lastContentIncludes: 'make the file now' },
            reply: { toolCalls: [create('c_child')] },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'The child is done.' } },
        ],
      );
      assert.deepEqual(
        { made: existsSync(made()), mode: session.conversation.state.mode },
        { made: false, mode: 'plan' },
        seen,
      );
    });

    it('plan mode: a handoff to an act agent keeps plan, and its next file edit is refused', async () => {
      const { session, seen } = await hostileRun(
        'hostile-plan-transfer',
        'plan',
        [{ name: 'transfer_to_agent', arguments: { agent_name: 'doer' } }],
        [{ match: { lastRole: 'tool' }, reply: { toolCalls: [create('c_after')] } }],
      );
      assert.deepEqual(
        { made: existsSync(made()), mode: session.conversation.state.mode },
        { made: false, mode: 'plan' },
        seen,
      );
    });
  });
});
