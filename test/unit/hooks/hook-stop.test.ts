// `continue: false` on a real journal: any event's hook that answers it makes the conversation's
// hooks end the run with the hook's stopReason as its error, refuse every further action, and
// answer the pending ones; a PreToolUse verdict with it refuses its action also when read back.
import * as assert from 'node:assert/strict';
import { ConversationHooks } from '../../../src/core/agent/conversation-hooks';
import { parseHooks } from '../../../src/core/hooks/hook-config';
import { HookRunner, preToolVerdict, type HookRunRecord } from '../../../src/core/hooks/hook-runner';
import type { ActionEvent } from '../../../src/core/events';
import { openJournal } from '../../support/loop-parts';

/** Hooks whose "program" answers with `stdout` (the exec port is the host's; here in process). */
async function setUp(stdout: string) {
  const f = await openJournal();
  const hooks = parseHooks({ PostToolUse: [{ hooks: [{ type: 'command', command: 'stopper' }] }] }, 'user');
  const runner = new HookRunner({
    hooks: () => hooks,
    exec: { run: async () => ({ exitCode: 0, stdout, stderr: '', timedOut: false, durationMs: 1 }) },
    cwd: '/',
    conversationId: 'c',
  });
  return { f, runner, hooks: new ConversationHooks(runner, f.journal, () => false, false) };
}

const pendingCall = { tool_name: 'terminal', tool_call_id: 'call_2' } as ActionEvent;

describe('hooks: continue: false', () => {
  it('ends the run after the step, with the stopReason as its error; the pending call is answered', async () => {
    const { f, runner, hooks } = await setUp('{"continue": false, "stopReason": "the build is red"}');
    hooks.beginRun();
    assert.equal(hooks.stopRefusal(), null);
    assert.equal(await hooks.haltIfAsked([]), false);
    await runner.run(f.journal, 'PostToolUse', {});
    assert.match(
      hooks.stopRefusal() ?? '',
      /^Not run: the hook `stopper` \(PostToolUse\) stopped the agent: the build is red$/,
    );
    assert.equal(await hooks.haltIfAsked([pendingCall]), true);
    const error = f.seen.find((e) => e.kind === 'ConversationErrorEvent') as unknown as Record<
      string,
      string
    >;
    assert.equal(error['code'], 'hook_stop');
    assert.match(error['detail']!, /stopped the agent: the build is red/);
    const answered = f.seen.find((e) => e.kind === 'AgentErrorEvent') as unknown as Record<string, string>;
    assert.equal(answered['tool_call_id'], 'call_2');
    assert.equal(f.journal.state.status, 'error');
    // Acted on once: the next run starts clean.
    hooks.beginRun();
    assert.equal(hooks.stopRefusal(), null);
  });

  it('a hook that lets the agent go on asks for nothing', async () => {
    const { f, runner, hooks } = await setUp('{"continue": true, "stopReason": "ignored"}');
    hooks.beginRun();
    await runner.run(f.journal, 'PostToolUse', {});
    assert.equal(hooks.stopRefusal(), null);
    assert.equal(await hooks.haltIfAsked([pendingCall]), false);
  });

  it('a PreToolUse verdict with continue: false refuses its action, whatever else it allowed', () => {
    const run = {
      event: 'PreToolUse',
      origin: 'user',
      matcher: '',
      command: 'gate.sh',
      input_sha256: '0',
      status: 'ok',
      decision: 'allow',
      stop: 'frozen',
      exit_code: 0,
      duration_ms: 1,
    } satisfies HookRunRecord;
    const v = preToolVerdict([run]);
    assert.equal(v.decision, 'deny');
    assert.match(v.reason ?? '', /asked the agent to stop: frozen/);
  });
});
