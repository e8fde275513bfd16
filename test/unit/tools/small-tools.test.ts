import assert from 'node:assert/strict';
import {
  createFinishTool,
  createTaskTrackerTool,
  createThinkTool,
  type TaskTrackerArgs,
} from '../../../src/core/tools';
import { createWorkspace, type TestWorkspace, textOf } from './workspace';

describe('task_tracker, think and finish tools', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = createWorkspace()));
  afterEach(() => ws.dispose());

  it('task_tracker plans, then shows the plan on view', async () => {
    const tracker = createTaskTrackerTool();
    const plan: TaskTrackerArgs = {
      command: 'plan',
      task_list: [
        { title: 'Read the code', notes: '', status: 'done' },
        { title: 'Fix the bug', notes: 'in parser.ts', status: 'in_progress' },
        { title: 'Add a test', notes: '', status: 'todo' },
      ],
    };
    const planned = await ws.run(tracker, plan);
    assert.equal(planned.kind, 'TaskTrackerObservation');
    assert.deepEqual(planned.task_list, plan.task_list);
    const view = await ws.run(tracker, { command: 'view' });
    assert.equal(
      textOf(view),
      'Tasks (1 of 3 done):\n1. [x] Read the code\n2. [~] Fix the bug\n   in parser.ts\n3. [ ] Add a test',
    );
  });

  it('task_tracker refuses two tasks in progress and keeps the previous plan', async () => {
    const tracker = createTaskTrackerTool({ initialTasks: [{ title: 'Only', notes: '', status: 'todo' }] });
    const obs = await ws.run(tracker, {
      command: 'plan',
      task_list: [
        { title: 'A', notes: '', status: 'in_progress' },
        { title: 'B', notes: '', status: 'in_progress' },
      ],
    });
    assert.equal(obs.is_error, true);
    assert.match(textOf(await ws.run(tracker, { command: 'view' })), /1\. \[ \] Only/);
  });

  it('think records the thought; finish echoes the final message', async () => {
    const think = await ws.run(createThinkTool(), { thought: 'maybe the cache' });
    assert.equal(think.kind, 'ThinkObservation');
    assert.equal(think.is_error, false);
    const finish = await ws.run(createFinishTool(), { message: 'All done.' });
    assert.equal(finish.kind, 'FinishObservation');
    assert.equal(textOf(finish), 'All done.');
  });
});
