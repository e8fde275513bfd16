// The pure parts of hooks: reading a hook's exit code and output as Claude Code documents them (and
// where Logbook is stricter), matchers against both tool names, the verdict of several hooks, the
// tool-name map both ways, and a configuration that does not fit.
import * as assert from 'node:assert/strict';
import { matchesTool, parseHooks } from '../../../src/core/hooks/hook-config';
import { readHookOutcome, type HookProcessResult } from '../../../src/core/hooks/hook-output';
import { preToolVerdict, type HookRunRecord } from '../../../src/core/hooks/hook-runner';
import { claudeToolCall, logbookArgs, matcherNames } from '../../../src/core/hooks/tool-names';

const ran = (r: Partial<HookProcessResult>): HookProcessResult => ({
  exitCode: 0,
  stdout: '',
  stderr: '',
  timedOut: false,
  durationMs: 1,
  ...r,
});

const record = (r: Partial<HookRunRecord>): HookRunRecord => ({
  event: 'PreToolUse',
  origin: 'user',
  matcher: '',
  command: 'x',
  input_sha256: '0',
  status: 'ok',
  decision: 'none',
  exit_code: 0,
  duration_ms: 1,
  ...r,
});

describe('hooks: reading a run', () => {
  it('exit 0 without output says nothing; exit 2 blocks with stderr as the reason', () => {
    assert.deepEqual(readHookOutcome('PreToolUse', ran({}), 60), { status: 'ok', decision: 'none' });
    const o = readHookOutcome('PreToolUse', ran({ exitCode: 2, stderr: 'no rm -rf\n' }), 60);
    assert.equal(o.status, 'blocked');
    assert.equal(o.decision, 'deny');
    assert.equal(o.reason, 'no rm -rf');
    assert.equal(readHookOutcome('PostToolUse', ran({ exitCode: 2, stderr: 'x' }), 60).decision, 'block');
  });

  it('another exit, a timeout, a start that failed or garbage on PreToolUse is a failure with a clear reason', () => {
    assert.match(
      readHookOutcome('PreToolUse', ran({ exitCode: 1, stderr: 'oops' }), 60).reason!,
      /exited with code 1: oops/,
    );
    assert.match(
      readHookOutcome('PreToolUse', ran({ timedOut: true, exitCode: null }), 5).reason!,
      /timeout of 5 s/,
    );
    assert.match(
      readHookOutcome('PreToolUse', ran({ spawnError: 'ENOENT' }), 5).reason!,
      /could not start: ENOENT/,
    );
    const garbage = readHookOutcome('PreToolUse', ran({ stdout: 'yes please' }), 60);
    assert.equal(garbage.status, 'failed');
    assert.match(garbage.reason!, /not JSON: yes please/);
    assert.equal(readHookOutcome('PreToolUse', ran({ stdout: '[1]' }), 60).status, 'failed');
    const bad = readHookOutcome(
      'PreToolUse',
      ran({ stdout: '{"hookSpecificOutput":{"permissionDecision":"maybe"}}' }),
      60,
    );
    assert.equal(bad.status, 'failed');
  });

  it('plain text is context for UserPromptSubmit and SessionStart, ignored for PostToolUse', () => {
    assert.equal(
      readHookOutcome('UserPromptSubmit', ran({ stdout: 'style: tabs' }), 60).additionalContext,
      'style: tabs',
    );
    assert.deepEqual(readHookOutcome('PostToolUse', ran({ stdout: 'formatted' }), 60), {
      status: 'ok',
      decision: 'none',
    });
  });

  it('reads permissionDecision, its reason, updatedInput, additionalContext and the older decision field', () => {
    const o = readHookOutcome(
      'PreToolUse',
      ran({
        stdout: JSON.stringify({
          hookSpecificOutput: {
            permissionDecision: 'ask',
            permissionDecisionReason: 'prod',
            updatedInput: { command: 'ls' },
          },
        }),
      }),
      60,
    );
    assert.deepEqual(o, { status: 'ok', decision: 'ask', reason: 'prod', updatedInput: { command: 'ls' } });
    assert.equal(
      readHookOutcome('PreToolUse', ran({ stdout: '{"decision":"approve"}' }), 60).decision,
      'allow',
    );
    const post = readHookOutcome(
      'PostToolUse',
      ran({
        stdout:
          '{"decision":"block","reason":"lint","hookSpecificOutput":{"additionalContext":"2 warnings"}}',
      }),
      60,
    );
    assert.deepEqual(post, {
      status: 'ok',
      decision: 'block',
      reason: 'lint',
      additionalContext: '2 warnings',
    });
  });

  it('a failure or deny wins over ask, ask over allow; a rewrite rides along', () => {
    assert.equal(
      preToolVerdict([record({ decision: 'allow' }), record({ status: 'failed', reason: 'r' })]).decision,
      'deny',
    );
    assert.equal(
      preToolVerdict([record({ decision: 'allow' }), record({ decision: 'ask' })]).decision,
      'ask',
    );
    const v = preToolVerdict([record({ decision: 'allow', updated_input: { command: 'a' } })]);
    assert.deepEqual(v.updatedInput, { command: 'a' });
    assert.equal(preToolVerdict([]).decision, 'none');
  });
});

describe('hooks: matchers and tool names', () => {
  it('a matcher is a whole-name regular expression against either name; empty and * match all', () => {
    const names = matcherNames('terminal', { command: 'ls' });
    assert.deepEqual(names, ['terminal', 'Bash']);
    assert.ok(matchesTool('Bash', names));
    assert.ok(matchesTool('terminal', names));
    assert.ok(matchesTool('Edit|Bash', names));
    assert.ok(!matchesTool('Bas', names));
    assert.ok(matchesTool('', names) && matchesTool('*', names));
    assert.ok(!matchesTool('(', names));
  });

  it('maps file_editor commands to Read, Write and Edit, and a rewrite back', () => {
    assert.deepEqual(claudeToolCall('file_editor', { command: 'create', path: 'a', file_text: 't' }), {
      name: 'Write',
      input: { file_path: 'a', content: 't' },
    });
    assert.equal(claudeToolCall('file_editor', { command: 'view', path: 'a' }).name, 'Read');
    assert.equal(
      claudeToolCall('file_editor', { command: 'str_replace', path: 'a', old_str: 'x' }).name,
      'Edit',
    );
    assert.deepEqual(
      logbookArgs('file_editor', { command: 'create', path: 'a', file_text: 't' }, { content: 'u' }),
      { command: 'create', path: 'a', file_text: 'u' },
    );
    assert.deepEqual(logbookArgs('terminal', { command: 'a', security_risk: 'LOW' }, { command: 'b' }), {
      command: 'b',
      security_risk: 'LOW',
    });
  });

  it('a configuration that does not fit names where and what', () => {
    assert.throws(
      () => parseHooks({ PreToolUse: [{ hooks: [{ type: 'command' }] }] }, 'user'),
      /logbook\.hooks.*hooks\.PreToolUse\.0\.hooks\.0\.command/,
    );
    assert.throws(
      () => parseHooks({ BeforeEverything: [] }, '.logbook/hooks.json'),
      /\.logbook\/hooks\.json/,
    );
    const [h] = parseHooks({ Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] }, 'user');
    assert.equal(h!.timeoutSeconds, 60);
  });
});
