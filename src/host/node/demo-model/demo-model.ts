// The model `npm start` and `logbook run --demo` use when no real one is configured. It cannot write code, but it walks
// through one small task on the sample project (plan, run the tests, read src/math.js, propose
// subtract()) and follows what the user does on the way: a rejection ends the walkthrough with an
// answer to the reason, a file that already has subtract() is left alone, and a task it has no
// script for gets a short note on what the demo shows and how to connect a real model.
// Stateless: every reply is chosen from the request alone, so any number of conversations work.
import { type CallOutcome, readConversation, rejectionOf } from './conversation-reading';
import type { DemoReply, DemoRequest, DemoToolCall } from './demo-wire';

export const DEMO_TASK = 'Add a subtract function to src/math.js';

/** How to leave the demo for a real model, in the words of where it runs. */
export const CONNECT_A_MODEL = {
  vscode:
    'To work on your own tasks, connect a real model: run **Logbook: Set API Key**, then set ' +
    '`logbook.llm.baseUrl` and `logbook.llm.model` in Settings (or start with `LOGBOOK_API_KEY` set).',
  cli:
    'To work on your own tasks, connect a real model: set `LOGBOOK_API_KEY` (OpenAI), or ' +
    '`LOGBOOK_BASE_URL` and `LOGBOOK_MODEL` for another OpenAI-compatible endpoint (a local one too), ' +
    'and run without `--demo`.',
} as const;

export type DemoSurface = keyof typeof CONNECT_A_MODEL;

const WHAT_THE_DEMO_SHOWS =
  `The demo follows one script: ask it to "${DEMO_TASK}" and it plans, runs the sample project's ` +
  'tests, reads the file and proposes an edit for you to confirm or reject.';

/** Words of a task the walkthrough answers (anything else gets the note on what the demo shows). */
const WALKTHROUGH_TASK = /subtract|demo|show|what can you|walk ?through|tour|example|math/i;
const THANKS = /^\s*(thanks?|thank you|ok(ay)?|great|nice|cool)\b/i;

const STREAMED = { chunkSize: 6, delayMs: 20 } as const;
const NEW_FUNCTION = 'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };';

export function demoReply(request: DemoRequest, surface: DemoSurface = 'vscode'): DemoReply {
  const connect = CONNECT_A_MODEL[surface];
  const { task, earlierTasks, calls } = readConversation(request);
  const id = (step: string) => `call_demo_${step}_${earlierTasks + 1}`;
  const last = calls.at(-1);
  if (!last) {
    if (THANKS.test(task)) return say(`Glad it helped. ${WHAT_THE_DEMO_SHOWS}\n\n${connect}`);
    if (!WALKTHROUGH_TASK.test(task)) return say(noScriptFor(task, connect));
    return {
      content:
        "This is Logbook's demo model (no real model is configured), so it follows a script: a small " +
        'task on the sample project, adding subtract() to src/math.js.',
      toolCalls: [planCall(id('plan'))],
      ...STREAMED,
    };
  }
  const rejected = rejectionOf(last.result);
  if (rejected) return say(answerToRejection(last, rejected.reason, connect));
  switch (last.name) {
    case 'task_tracker':
      return {
        toolCalls: [
          call(id('test'), 'terminal', {
            command: 'npm test',
            security_risk: 'LOW',
            summary: "Run the project's tests",
          }),
        ],
      };
    case 'terminal':
      return {
        content: testsPassed(last.result)
          ? 'The tests pass. Now the code.'
          : 'The tests did not pass (the output is above); I will read the code anyway.',
        toolCalls: [call(id('view'), 'file_editor', { command: 'view', path: 'src/math.js' })],
        ...STREAMED,
      };
    case 'file_editor':
      return afterFileEditor(last, id, connect);
    default:
      return say(`That was the end of the walkthrough. ${connect}`);
  }
}

function afterFileEditor(last: CallOutcome, id: (step: string) => string, connect: string): DemoReply {
  const result = last.result ?? '';
  if (last.id.startsWith('call_demo_view')) {
    if (/function subtract/.test(result)) {
      return say(
        'src/math.js already has subtract() (an earlier task added it), so there is nothing left for ' +
          `the demo to change. ${connect}`,
      );
    }
    return {
      content: "I'll add a subtract function next to add().",
      toolCalls: [
        call(id('edit'), 'file_editor', {
          command: 'str_replace',
          path: 'src/math.js',
          old_str: 'module.exports = { add };',
          new_str: NEW_FUNCTION,
          security_risk: 'MEDIUM',
          summary: 'Add subtract() to src/math.js',
        }),
      ],
      ...STREAMED,
    };
  }
  if (!/^Edited /.test(result.trim())) {
    return say(`The edit did not apply: ${firstLine(result)}. src/math.js is unchanged.`);
  }
  return {
    toolCalls: [
      call(id('finish'), 'finish', {
        message:
          'Done. src/math.js now exports subtract(). Review the change inline in the editor, or run ' +
          '**Logbook: Review Changes**.',
      }),
    ],
  };
}

function answerToRejection(rejected: CallOutcome, reason: string, connect: string): string {
  const what =
    rejected.name === 'terminal'
      ? 'I did not run the tests'
      : rejected.name === 'file_editor'
        ? 'I left src/math.js unchanged'
        : 'I did not do that';
  const because = reason ? ` You said: "${reason.slice(0, 300)}".` : '';
  return (
    `Understood: ${what}.${because} The demo model cannot act on that reason, so the walkthrough ` +
    `stops here. ${connect}`
  );
}

function noScriptFor(task: string, connect: string): string {
  const quoted = task.length > 80 ? `${task.slice(0, 79)}…` : task;
  return (
    `This is Logbook's demo model, and it has no script for "${quoted}". ${WHAT_THE_DEMO_SHOWS}\n\n` + connect
  );
}

function planCall(id: string): DemoToolCall {
  return call(id, 'task_tracker', {
    command: 'plan',
    task_list: [
      { title: 'Run the tests', notes: 'npm test', status: 'in_progress' },
      { title: 'Read src/math.js', notes: '', status: 'todo' },
      { title: 'Add subtract()', notes: '', status: 'todo' },
    ],
  });
}

function testsPassed(result: string | undefined): boolean {
  return /exit code 0\b/.test(result ?? '');
}

function call(id: string, name: string, args: Record<string, unknown>): DemoToolCall {
  return { id, name, arguments: args };
}

function say(content: string): DemoReply {
  return { content, ...STREAMED };
}

function firstLine(text: string): string {
  return (text.trim().split('\n')[0] ?? '').slice(0, 200).replace(/\.$/, '');
}
