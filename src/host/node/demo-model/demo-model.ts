// The model `npm start` and `logbook run --demo` use when no real one is configured. It cannot write
// code, but it walks through one small task on the sample project (plan, run the tests, read
// src/math.js, propose subtract()) and follows what the user does on the way: in plan mode it only
// plans and waits for Approve plan, a rejection ends the walkthrough with an answer to the reason, a
// file that already has subtract() is left alone, "explain FILE" reads the file and lists what it
// finds, and a task it has no script for gets a short note on what the demo shows and how to
// connect a real model.
// Stateless: every reply is chosen from the request alone, so any number of conversations work.
import { type CallOutcome, type DemoReading, readConversation, rejectionOf } from './conversation-reading';
import type { DemoReply, DemoRequest, DemoToolCall } from './demo-wire';
import { DEMO_EXPLAIN_TASK, DEMO_TASK } from './demo-tasks';

export { DEMO_EXPLAIN_TASK, DEMO_TASK, DEMO_TASKS } from './demo-tasks';

/** How to leave the demo for a real model, in the words of where it runs. */
export const CONNECT_A_MODEL = {
  vscode:
    'To work on your own tasks, connect a real model: click the model name in the chat header and ' +
    'choose **Connect a model…** (or run **Logbook: Set API Key**, then set `logbook.model.baseURL` and ' +
    '`logbook.model.name` in Settings).',
  cli:
    'To work on your own tasks, connect a real model: set `LOGBOOK_API_KEY` (OpenAI), or ' +
    '`LOGBOOK_BASE_URL` and `LOGBOOK_MODEL` for another OpenAI-compatible endpoint (a local one too), ' +
    'and run without `--demo`.',
} as const;

export type DemoSurface = keyof typeof CONNECT_A_MODEL;

/** Where the finished change is reviewed, in the words of where the demo runs. */
const REVIEW_THE_CHANGE: Record<DemoSurface, string> = {
  vscode: 'Review the change inline in the editor, or run **Logbook: Review Changes**.',
  cli: 'See the change with: logbook diff --from start --to now',
};

const WHAT_THE_DEMO_SHOWS =
  `The demo follows two scripts: ask it to "${DEMO_TASK}" and it plans, runs the sample project's ` +
  `tests, reads the file and proposes an edit for you to confirm or reject (in plan mode it plans ` +
  `first and waits for Approve plan); ask it to "${DEMO_EXPLAIN_TASK}" and it reads the file and ` +
  'lists what it finds.';

const INTRO = "This is Logbook's demo model (no real model is configured), so it follows a script";

/** Words of a task the walkthrough answers (anything else gets the note on what the demo shows). */
const WALKTHROUGH_TASK = /subtract|\bdemo\b|what can you|walk ?through|\btour\b|show me/i;
/** "Explain src/a.js", "what does @src/a.js do", "describe a.js": the file is read, not changed. */
const EXPLAIN_TASK = /\b(explain|describe|summari[sz]e|what does|what is in|what's in|read)\b/i;
const FILE_IN_TASK = /@?((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z0-9]+)\b/;
const THANKS = /^\s*(thanks?|thank you|ok(ay)?|great|nice|cool)\b/i;

const STREAMED = { chunkSize: 6, delayMs: 20 } as const;
const NEW_FUNCTION = 'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };';

const STEPS = ['Run the tests', 'Read src/math.js', 'Add subtract()'] as const;
const STEP_NOTES = ['npm test: they pass before the change', 'where add() is', 'next to add(), exported too'];

export function demoReply(request: DemoRequest, surface: DemoSurface = 'vscode'): DemoReply {
  const connect = CONNECT_A_MODEL[surface];
  const reading = readConversation(request);
  const { task, earlierTasks, calls, planMode } = reading;
  const id = (step: string) => `call_demo_${step}_${earlierTasks + 1}`;
  const last = calls.at(-1);
  if (!last) return firstReply(reading, id, connect);
  const rejected = rejectionOf(last.result);
  if (rejected) return say(answerToRejection(last, rejected.reason, connect));
  if (refusedInPlanMode(last.result)) {
    return say(
      'Plan mode is on, so that step was not run: plan mode only reads. Approve the plan, or switch ' +
        'to Act below the message box, and ask again.',
    );
  }
  switch (last.name) {
    case 'task_tracker':
      if (planMode) {
        return say(
          'That is the plan; nothing has changed yet (plan mode only reads). Choose **Approve plan** ' +
            'on the plan to let me carry it out, **Edit** to change a step first, or tell me what to change.',
        );
      }
      if (last.id.startsWith('call_demo_done')) {
        return {
          toolCalls: [
            call(id('finish'), 'finish', {
              message: `Done. src/math.js now exports subtract(). ${REVIEW_THE_CHANGE[surface]}`,
            }),
          ],
        };
      }
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
        toolCalls: [
          planCall(id('progress'), 1),
          call(id('view'), 'file_editor', { command: 'view', path: 'src/math.js', security_risk: 'LOW' }),
        ],
        ...STREAMED,
      };
    case 'file_editor':
      return last.id.startsWith('call_demo_read')
        ? explained(task, last, connect)
        : afterFileEditor(last, id, connect);
    default:
      return say(`That was the end of the walkthrough. ${connect}`);
  }
}

function firstReply(reading: DemoReading, id: (step: string) => string, connect: string): DemoReply {
  const { task, planMode, approvedPlan } = reading;
  if (THANKS.test(task)) return say(`Glad it helped. ${WHAT_THE_DEMO_SHOWS}\n\n${connect}`);
  if (approvedPlan) {
    return {
      content: 'Carrying out the plan you approved, one step at a time.',
      toolCalls: [planCall(id('plan'), 0)],
      ...STREAMED,
    };
  }
  const explain = EXPLAIN_TASK.exec(task) ? FILE_IN_TASK.exec(task.replace(EXPLAIN_TASK, ' ')) : null;
  if (explain?.[1]) {
    return {
      content: `${INTRO}: it reads ${explain[1]} and lists what it finds (a real model would explain it).`,
      toolCalls: [
        call(id('read'), 'file_editor', { command: 'view', path: explain[1], security_risk: 'LOW' }),
      ],
      ...STREAMED,
    };
  }
  if (!WALKTHROUGH_TASK.test(task)) return say(noScriptFor(task, connect));
  if (planMode) {
    return {
      content:
        `${INTRO}. Plan mode is on, so first the plan: a small task on the sample project, adding ` +
        'subtract() to src/math.js. Nothing runs until you approve it.',
      toolCalls: [planCall(id('plan'), undefined)],
      ...STREAMED,
    };
  }
  return {
    content: `${INTRO}: a small task on the sample project, adding subtract() to src/math.js.`,
    toolCalls: [planCall(id('plan'), 0)],
    ...STREAMED,
  };
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
      // The edit alone: a task-list update in the same reply would wait on its approval too.
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
    return say(`The edit did not apply: ${firstSentence(result)} src/math.js is unchanged.`);
  }
  return { toolCalls: [planCall(id('done'), STEPS.length)] };
}

/** What "explain FILE" found: its size, functions and exports, said plainly as a list. */
function explained(task: string, last: CallOutcome, connect: string): DemoReply {
  const result = last.result ?? '';
  const path = FILE_IN_TASK.exec(task.replace(EXPLAIN_TASK, ' '))?.[1] ?? 'the file';
  if (/^(ERROR|Error)|does not exist|No such file|not found/i.test(result.trim())) {
    return say(`I could not read ${path}: ${firstSentence(result)}`);
  }
  const code = result
    .split('\n')
    .map((l) => l.replace(/^\s*\d+\t/, ''))
    .join('\n');
  const functions = [...code.matchAll(/function\s+([\w$]+)\s*\(([^)]*)\)/g)].map((m) => `${m[1]}(${m[2]})`);
  const exported = /module\.exports\s*=\s*\{([^}]*)\}/.exec(code)?.[1]?.trim();
  const lines = [
    `${path}:`,
    functions.length
      ? `- defines ${functions.map((f) => `\`${f}\``).join(', ')}`
      : '- defines no named function',
    exported ? `- exports \`{ ${exported} }\`` : '- has no `module.exports`',
  ];
  return say(
    `${lines.join('\n')}\n\nThat is all the demo model can tell from reading it; a real model explains ` +
      `what the code does and why. ${connect}`,
  );
}

function refusedInPlanMode(result: string | undefined): boolean {
  return /^Refused: the conversation is in plan mode/.test(result?.trim() ?? '');
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

/**
 * The task list with the first `done` steps done and the next one in progress; `undefined`: every
 * step to do (a plan in plan mode, where nothing runs yet).
 */
function planCall(id: string, done: number | undefined): DemoToolCall {
  return call(id, 'task_tracker', {
    command: 'plan',
    task_list: STEPS.map((title, i) => ({
      title,
      notes: STEP_NOTES[i] ?? '',
      status: done === undefined ? 'todo' : i < done ? 'done' : i === done ? 'in_progress' : 'todo',
    })),
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

/** The first sentence of a result, whole (never cut mid-word), at most about 200 characters. */
function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const sentence = /^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
  if (sentence.length <= 200) return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
  const cut = sentence.slice(0, 200);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))}…`;
}
