import assert from 'node:assert/strict';
import { defaultTools, validateToolCall, type ValidToolCall } from '../../../src/core/tools';

const tools = defaultTools();

function valid(name: string, args: unknown): ValidToolCall {
  const result = validateToolCall(tools, name, JSON.stringify(args));
  if (!result.ok) assert.fail(result.error);
  return result;
}

function invalid(name: string, argumentsJson: string): string {
  const result = validateToolCall(tools, name, argumentsJson);
  assert.equal(result.ok, false, 'expected a validation error');
  return (result as { error: string }).error;
}

describe('validateToolCall', () => {
  it('builds a TerminalAction payload shaped like OpenHands (fixture field order, kind last)', () => {
    const v = valid('terminal', { command: 'ls', security_risk: 'LOW', summary: 'List files' });
    assert.deepEqual(Object.entries(v.action), [
      ['command', 'ls'],
      ['is_input', false],
      ['timeout', null],
      ['reset', false],
      ['kind', 'TerminalAction'],
    ]);
    assert.equal(v.security_risk, 'LOW');
    assert.equal(v.summary, 'List files');
    assert.equal(v.spec.name, 'terminal');
    assert.equal('security_risk' in v.args, false, 'security fields are not executor arguments');
  });

  it('tolerates a missing or odd security_risk (UNKNOWN) and normalises its case', () => {
    assert.equal(valid('terminal', { command: 'ls' }).security_risk, 'UNKNOWN');
    assert.equal(valid('terminal', { command: 'ls' }).summary, null);
    assert.equal(valid('terminal', { command: 'ls', security_risk: 'medium' }).security_risk, 'MEDIUM');
    assert.equal(valid('terminal', { command: 'ls', security_risk: 'CRITICAL' }).security_risk, 'UNKNOWN');
  });

  it('reports UNKNOWN risk for read-only tools whatever they were sent', () => {
    assert.equal(valid('glob', { pattern: '*.ts', security_risk: 'HIGH' }).security_risk, 'UNKNOWN');
  });

  it('names the available tools when the tool does not exist', () => {
    const error = invalid('shell', '{}');
    assert.match(error, /Tool "shell" does not exist/);
    assert.match(error, /terminal, file_editor, task_tracker, glob, grep, think, finish/);
  });

  it('explains invalid JSON and non-object arguments', () => {
    assert.match(invalid('terminal', '{"command": "ls"'), /not valid JSON/);
    assert.match(invalid('terminal', '["ls"]'), /must be a JSON object/);
  });

  it('names the missing or wrong field', () => {
    assert.match(invalid('terminal', '{}'), /- command: required/);
    assert.match(invalid('file_editor', '{"command": "delete", "path": "a"}'), /- command: Invalid option/);
    assert.match(
      invalid('file_editor', '{"command": "create", "path": "a"}'),
      /- file_text: required by create/,
    );
    assert.match(
      invalid('file_editor', '{"command": "insert", "path": "a", "new_str": "x"}'),
      /- insert_line: required by insert/,
    );
    assert.match(
      invalid('task_tracker', '{"command": "plan", "task_list": [{"status": "done"}]}'),
      /- task_list\[0\]\.title: required/,
    );
    assert.match(invalid('finish', ''), /- message: required/);
  });

  it('forgives numbers, booleans and arrays sent as strings, and nulls for unused fields', () => {
    const v = valid('file_editor', {
      command: 'view',
      path: 'a.txt',
      view_range: '[1, 20]',
      insert_line: null,
      file_text: null,
    });
    assert.deepEqual(v.args.view_range, [1, 20]);
    assert.equal(v.action.file_text, null);
    const t = valid('terminal', { command: 'make', timeout: '120', is_input: 'false' });
    assert.equal(t.args.timeout, 120);
    assert.equal(t.args.is_input, false);
  });

  it('still rejects what cannot be forgiven', () => {
    assert.match(
      invalid('file_editor', '{"command": "view", "path": "a", "view_range": "1-20"}'),
      /view_range/,
    );
    assert.match(invalid('terminal', '{"command": "ls", "timeout": -5}'), /- timeout:/);
  });
});
