// Hooks in the editor (docs/HOOKS.md), each as a user meets it: real hook programs (bash and node,
// run outside the sandbox) in the user's logbook.hooks or the repository's .logbook/hooks.json, the
// scripted model, the chat as a task is sent from it. A PreToolUse hook denies `rm -rf` (the card
// the chat receives carries the hook's reason), rewrites a command, hangs, prints garbage; a
// PostToolUse formatter tidies an edit; `continue: false` stops the agent with its reason. A
// repository's hooks run only once accepted: this window cannot show the question, which counts as
// declined, so the run is refused and the message is not recorded; accepted, they run; changed,
// they are asked about again.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Event } from '../../../src/core/events';
import { acceptHooks } from '../../../src/host/node/hooks/accepted-hooks';
import { repositoryHooks } from '../../../src/host/node/hooks/hook-sources';
import type { HostMessage } from '../../../src/protocol/messages';
import { hookRewrite, noteHookRun } from '../../../webview-ui/src/state/hook-rewrites';
import type { ScriptedLlm, ScriptedToolCall } from '../../support/llm-server';
import { chatTask, scriptedModel, until, workspaceRoot } from './helpers';

const KEEP = 'hooks-keep.txt';
const NOTES = 'hooks-notes.txt';

type Json = Record<string, unknown>;

const terminal = (id: string, command: string): ScriptedToolCall => ({
  id,
  name: 'terminal',
  arguments: { command, security_risk: 'LOW', summary: 'run' },
});

/** A model that makes one call, then finishes whatever its result says. */
const oneCall = (name: string, call: ScriptedToolCall) => ({
  name,
  turns: [
    { match: { lastRole: 'user' as const }, reply: { toolCalls: [call] } },
    {
      match: { lastRole: 'tool' as const },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
    },
  ],
});

describe('hooks in the editor', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  let scripts: string;
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  const ws = (name: string) => join(workspaceRoot(), name);

  before(async () => {
    scripts = mkdtempSync(join(tmpdir(), 'logbook-host-hooks-'));
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await cfg().update('hooks', undefined, vscode.ConfigurationTarget.Global);
    for (const f of [KEEP, NOTES, 'hooks-ran.txt', '.logbook'])
      rmSync(ws(f), { recursive: true, force: true });
  });
  after(async () => {
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    rmSync(scripts, { recursive: true, force: true });
  });

  function script(name: string, body: string): string {
    const file = join(scripts, name);
    writeFileSync(file, body);
    chmodSync(file, 0o755);
    return file;
  }

  const userHooks = (value: Json) => cfg().update('hooks', value, vscode.ConfigurationTarget.Global);
  const pre = (command: string, timeout?: number): Json => ({
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }],
  });
  const hookRuns = (events: Event[]) =>
    events.flatMap((e) =>
      e.kind === 'ConversationStateUpdateEvent' && e.key === 'hook_run' ? [e.value as Json] : [],
    );
  /** What the model read for its one call. */
  const result = (events: Event[]) =>
    JSON.stringify(events.find((e) => e.kind === 'ObservationEvent' || e.kind === 'AgentErrorEvent'));

  /** Sends `task` from the chat; waits for the run to settle; returns what the chat received. */
  async function runTask(task: string, expected = 'finished') {
    const { view, controller, session } = await chatTask(task);
    try {
      await until(() => llm!.remainingTurns() === 0, 'the model played its turns');
      assert.equal(await session.settled(), expected, session.conversation.state.lastError?.message);
      return {
        shown: JSON.stringify(view.posted),
        posted: [...view.posted],
        events: await session.conversation.events(),
      };
    } finally {
      controller.dispose();
    }
  }

  it("a PreToolUse hook (bash) denies rm -rf: nothing is removed, and the chat shows the hook's reason", async () => {
    const hook = script(
      'deny-rm.sh',
      '#!/usr/bin/env bash\ninput=$(cat)\nif printf "%s" "$input" | grep -q "rm -rf"; then echo "rm -rf is against the team policy" >&2; exit 2; fi\n',
    );
    writeFileSync(ws(KEEP), 'kept\n');
    await userHooks(pre(hook));
    llm = await scriptedModel(oneCall('hooks-deny', terminal('call_rm', `rm -rf ${KEEP}`)));
    const { shown, events } = await runTask('clean up');
    assert.ok(existsSync(ws(KEEP)), 'the hook did not stop rm -rf');
    assert.match(shown, /Blocked by the hook `[^`]*deny-rm\.sh`: rm -rf is against the team policy/);
    const runs = hookRuns(events);
    assert.equal(runs.length, 1);
    assert.equal(runs[0]!['decision'], 'deny');
    // The chat receives the run too: its line names the hook and its reason.
    assert.match(shown, /"key":"hook_run".*"reason":"rm -rf is against the team policy"/);
  });

  it('a PreToolUse hook (node) rewrites a command: the rewrite runs, and the chat receives it', async () => {
    const hook = script(
      'rewrite.js',
      `#!/usr/bin/env node
let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const input = JSON.parse(s);
  if (!input.tool_input.command.includes('original')) return;
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse',
    updatedInput: { command: input.tool_input.command.replace('original', 'rewritten') } } }));
});
`,
    );
    await userHooks(pre(hook));
    llm = await scriptedModel(oneCall('hooks-rewrite', terminal('call_echo', 'echo original-words')));
    const { shown, posted, events } = await runTask('say it');
    assert.match(result(events), /rewritten-words/);
    assert.doesNotMatch(result(events), /original-words/);
    assert.match(shown, /"updated_input":\{"command":"echo rewritten-words"\}/);
    // The card, read from what the chat received as the chat reads it: the command that ran,
    // marked with the hook, and the model's own below.
    const received = posted.flatMap((m: HostMessage) =>
      m.type === 'events' ? m.events.map((v) => v.event) : [],
    );
    for (const e of received) noteHookRun(e);
    const action = received.find((e) => e.kind === 'ActionEvent' && e.tool_name === 'terminal');
    assert.ok(action, 'the chat received the action');
    const card = hookRewrite(action);
    assert.equal(card?.action['command'], 'echo rewritten-words');
    assert.deepEqual(card?.original, { command: 'echo original-words' });
    assert.match(card?.by ?? '', /rewrite\.js$/);
  });

  it('a PreToolUse hook that hangs is stopped at its timeout, and the action does not run', async () => {
    const hook = script('hang.sh', '#!/usr/bin/env bash\nsleep 30\n');
    await userHooks(pre(hook, 1));
    llm = await scriptedModel(oneCall('hooks-hang', terminal('call_touch', 'touch hooks-ran.txt')));
    const started = Date.now();
    const { shown, events } = await runTask('touch it');
    assert.ok(Date.now() - started < 25_000, 'the hook was not stopped at its timeout');
    assert.equal(existsSync(ws('hooks-ran.txt')), false);
    assert.match(result(events), /did not finish within its timeout of 1 s/);
    assert.match(shown, /did not finish within its timeout of 1 s/);
    assert.equal(hookRuns(events)[0]!['timed_out'], true);
  });

  it('a PreToolUse hook that prints garbage is a clear error, and the action does not run', async () => {
    const hook = script('garbage.sh', '#!/usr/bin/env bash\ncat >/dev/null\necho "sure, go ahead!"\n');
    await userHooks(pre(hook));
    llm = await scriptedModel(oneCall('hooks-garbage', terminal('call_touch', 'touch hooks-ran.txt')));
    const { shown, events } = await runTask('touch it');
    assert.equal(existsSync(ws('hooks-ran.txt')), false);
    assert.match(result(events), /the hook's output is not JSON: sure, go ahead!/);
    assert.match(shown, /the hook's output is not JSON/);
  });

  it('a PostToolUse formatter (bash) tidies the file the agent wrote, and tells the model', async () => {
    const hook = script(
      'format.sh',
      `#!/usr/bin/env bash
file=$(sed -E 's/.*"file_path":"([^"]*)".*/\\1/')
sed -i -E 's/[[:space:]]+$//' "$file"
echo "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PostToolUse\\",\\"additionalContext\\":\\"formatted $file\\"}}"
`,
    );
    await userHooks({
      PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: hook }] }],
    });
    llm = await scriptedModel(
      oneCall('hooks-format', {
        id: 'call_create',
        name: 'file_editor',
        arguments: {
          command: 'create',
          path: NOTES,
          file_text: 'one   \ntwo\t\n',
          security_risk: 'LOW',
          summary: 'write',
        },
      }),
    );
    const { events } = await runTask('write notes');
    assert.equal(readFileSync(ws(NOTES), 'utf8'), 'one\ntwo\n');
    assert.match(result(events), /formatted .*hooks-notes\.txt/);
  });

  it('a hook that answers continue: false stops the agent after that step, with its reason', async () => {
    const hook = script(
      'stop.sh',
      `#!/usr/bin/env bash\ncat >/dev/null\necho '{"continue": false, "stopReason": "the build is red, fix it first"}'\n`,
    );
    await userHooks({ PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] });
    llm = await scriptedModel({
      name: 'hooks-stop',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminal('call_one', 'echo one')] } },
        // Not asked: the agent stopped after the first action.
        { match: { lastRole: 'tool' }, reply: { toolCalls: [terminal('call_two', 'touch hooks-ran.txt')] } },
      ],
    });
    const { view, controller, session } = await chatTask('build it');
    try {
      await until(() => session.conversation.status === 'error', 'the hook to stop the agent');
      assert.equal(await session.settled(), 'error');
      assert.equal(llm.remainingTurns(), 1);
      assert.equal(existsSync(ws('hooks-ran.txt')), false);
      assert.match(session.conversation.state.lastError?.message ?? '', /^hook_stop: .*the build is red/);
      assert.match(JSON.stringify(view.posted), /"code":"hook_stop".*stopped the agent: the build is red/);
    } finally {
      controller.dispose();
    }
  });

  it('a UserPromptSubmit hook that blocks the message: nothing is recorded, and its reason is said', async () => {
    const hook = script(
      'no-ticket.sh',
      '#!/usr/bin/env bash\ncat >/dev/null\necho "no ticket number" >&2\nexit 2\n',
    );
    await userHooks({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook }] }] });
    llm = await scriptedModel({ name: 'hooks-prompt', turns: [] });
    const { controller, session } = await chatTask('hello');
    try {
      await until(() => session.hooksRefusal !== undefined, 'the message to be refused');
      assert.match(session.hooksRefusal!, /did not let this message through: no ticket number/);
      assert.equal(llm.completionBodies().length, 0);
      const said = (await session.conversation.events()).filter(
        (e) => e.kind === 'MessageEvent' && e.source === 'user',
      );
      assert.equal(said.length, 0);
    } finally {
      controller.dispose();
    }
  });

  describe("a repository's hooks", () => {
    const write = (command: string) => {
      mkdirSync(ws('.logbook'), { recursive: true });
      writeFileSync(
        ws('.logbook/hooks.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command }] }] } }),
      );
    };

    it('unaccepted, the question this window cannot show counts as declined: the run is refused, nothing recorded', async () => {
      const mark = join(scripts, 'repo-ran');
      write(`touch ${mark}`);
      llm = await scriptedModel(oneCall('hooks-repo-refused', terminal('call_ls', 'ls')));
      const { controller, session } = await chatTask('look');
      try {
        await until(() => session.hooksRefusal !== undefined, 'the run to be refused');
        assert.match(
          session.hooksRefusal!,
          /\.logbook\/hooks\.json were not accepted, so the agent did not run/,
        );
        assert.match(session.hooksRefusal!, /logbook hooks accept/);
        assert.equal(await session.settled(), 'idle');
        assert.equal(llm.completionBodies().length, 0);
        assert.equal(existsSync(mark), false);
        const said = (await session.conversation.events()).filter(
          (e) => e.kind === 'MessageEvent' && e.source === 'user',
        );
        assert.equal(said.length, 0, 'the message was recorded though the run was refused');
      } finally {
        controller.dispose();
      }
    });

    it('accepted, they run; changed, they are asked about again (and refused here)', async () => {
      const mark = join(scripts, 'repo-accepted');
      write(`touch ${mark}`);
      acceptHooks(process.env, workspaceRoot(), repositoryHooks(workspaceRoot())[0]!);
      llm = await scriptedModel(oneCall('hooks-repo-accepted', terminal('call_ls', 'ls')));
      const { events } = await runTask('look');
      assert.ok(existsSync(mark), 'the accepted hook did not run');
      assert.equal(hookRuns(events)[0]!['origin'], '.logbook/hooks.json');
      await llm.close();

      const other = join(scripts, 'repo-changed');
      write(`touch ${other}`);
      llm = await scriptedModel(oneCall('hooks-repo-changed', terminal('call_ls', 'ls')));
      const { controller, session } = await chatTask('look again');
      try {
        await until(() => session.hooksRefusal !== undefined, 'the changed hooks to be asked about');
        assert.equal(llm.completionBodies().length, 0);
        assert.equal(existsSync(other), false);
      } finally {
        controller.dispose();
      }
    });
  });
});
