// The pure parts of worktree tasks: names (made and checked) and the status a task reads as.
import * as assert from 'node:assert/strict';
import { isTaskName, taskNameFrom, taskNameProblem, taskStatus } from '../../../src/core/worktrees';

describe('worktree task names', () => {
  it('are made from the first four words and a short id, lower-case, dashes only', () => {
    assert.equal(taskNameFrom('Fix the failing login test now', 'A1B2C3'), 'fix-the-failing-login-a1b2c3');
    assert.equal(taskNameFrom('  Ünïcode & symbols!! ', 'abc123'), 'unicode-symbols-abc123');
    assert.equal(taskNameFrom('日本語', 'abc123'), 'task-abc123');
    const long = taskNameFrom('supercalifragilisticexpialidocious-and-more words', '123456');
    assert.ok(isTaskName(long), long);
    assert.ok(long.length <= 48);
  });

  it('refuse what is no safe folder or branch part', () => {
    for (const bad of ['', '-x', 'x-', 'a--b', '../x', 'A', 'a/b', '.tasks', 'a b', 'x'.repeat(49)])
      assert.match(taskNameProblem(bad) ?? '', /is not a task name/, bad);
    for (const good of ['a', 'fix-1', '0day', 'x'.repeat(48)])
      assert.equal(taskNameProblem(good), null, good);
  });
});

describe('worktree task status', () => {
  const facts = { lifecycle: 'active' as const, execution: null, writerAlive: false, worktreeExists: true };
  it('is crashed when the log says running (or nothing) and no process writes it', () => {
    assert.deepEqual(taskStatus({ ...facts, execution: 'running' }), {
      status: 'crashed',
      waitingForYou: true,
    });
    assert.deepEqual(taskStatus(facts), { status: 'crashed', waitingForYou: true });
    // Killed in its setup: the log says idle, but a setup command has no result.
    assert.equal(taskStatus({ ...facts, execution: 'idle', settingUp: true }).status, 'crashed');
  });
  it('is running, starting or waiting while a process writes it', () => {
    const alive = { ...facts, writerAlive: true };
    assert.deepEqual(taskStatus({ ...alive, execution: 'running' }), {
      status: 'running',
      waitingForYou: false,
    });
    assert.deepEqual(taskStatus(alive), { status: 'starting', waitingForYou: false });
    assert.deepEqual(taskStatus({ ...alive, execution: 'idle', settingUp: true }), {
      status: 'setting up',
      waitingForYou: false,
    });
    assert.deepEqual(taskStatus({ ...alive, execution: 'waiting_for_confirmation' }), {
      status: 'waiting',
      waitingForYou: true,
    });
  });
  it('says what became of it, and that its worktree is missing', () => {
    assert.equal(taskStatus({ ...facts, execution: 'finished' }).status, 'finished');
    assert.equal(taskStatus({ ...facts, execution: 'error' }).status, 'failed');
    assert.equal(taskStatus({ ...facts, execution: 'paused' }).status, 'waiting');
    assert.equal(taskStatus({ ...facts, worktreeExists: false, execution: 'finished' }).status, 'missing');
    assert.equal(taskStatus({ ...facts, lifecycle: 'discarded', worktreeExists: false }).status, 'discarded');
    assert.equal(taskStatus({ ...facts, lifecycle: 'applied', execution: 'finished' }).status, 'applied');
  });
});
