// Rejects Chat Completions requests the real API rejects, with messages worded like the real ones.
// Pure functions, so other tests can check a message list offline:
//   assert.deepEqual(validateMessages(messages), []);
// The real API stops at the first problem; these return them all, the server reports the first.

export interface RequestProblem {
  message: string;
  param: string | null;
  code: string | null;
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function validateChatRequest(body: unknown): RequestProblem[] {
  if (!isObject(body)) return [problem('The request body must be a JSON object.', null)];
  const problems: RequestProblem[] = [];
  if (body.model === undefined || body.model === null || body.model === '') {
    problems.push(problem('You must provide a model parameter.', null));
  } else if (typeof body.model !== 'string') {
    problems.push(invalidType('model', 'a string', body.model));
  }
  if (body.messages === undefined) problems.push(missing('messages'));
  else problems.push(...validateMessages(body.messages));
  if (body.tools !== undefined && body.tools !== null) problems.push(...validateTools(body.tools));
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  if (body.tool_choice !== undefined && body.tool_choice !== null && !hasTools) {
    problems.push(
      problem(
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        'tool_choice',
      ),
    );
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    problems.push(invalidType('stream', 'a boolean', body.stream));
  }
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true) {
    problems.push(
      problem("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options'),
    );
  }
  return problems;
}

export function validateMessages(messages: unknown): RequestProblem[] {
  if (!Array.isArray(messages)) return [invalidType('messages', 'an array', messages)];
  if (messages.length === 0) return [problem("[] is too short - 'messages'", 'messages')];

  const problems: RequestProblem[] = [];
  // The assistant message whose tool calls the following tool messages must answer, if any.
  let run: { index: number; ids: Set<string>; unanswered: Set<string> } | undefined;
  const closeRun = () => {
    if (run && run.unanswered.size > 0) problems.push(unansweredCalls(run.index, [...run.unanswered]));
    run = undefined;
  };

  messages.forEach((message: unknown, i) => {
    const at = `messages[${i}]`;
    if (!isObject(message)) {
      problems.push(invalidType(at, 'an object', message));
      return;
    }
    const role = message.role;
    if (role === undefined) problems.push(missing(`${at}.role`));
    else if (typeof role !== 'string' || !ROLES.includes(role)) {
      problems.push(
        problem(
          `Invalid value: ${describeValue(role)}. Supported values are: 'system', 'developer', 'user', 'assistant', and 'tool'.`,
          `${at}.role`,
          'invalid_value',
        ),
      );
    }
    if (role !== 'tool') closeRun();

    if (role === 'system' || role === 'developer' || role === 'user') {
      problems.push(...checkContent(message.content, `${at}.content`, true));
      if (role === 'user') problems.push(...checkImageParts(message.content, `${at}.content`));
      else problems.push(...refuseImageParts(message.content, `${at}.content`, role));
    } else if (role === 'assistant') {
      const toolCalls = message.tool_calls;
      const hasToolCalls = toolCalls !== undefined && toolCalls !== null;
      if (hasToolCalls) {
        const ids = checkAssistantToolCalls(toolCalls, at, problems);
        if (ids.size > 0) run = { index: i, ids, unanswered: new Set(ids) };
      }
      if (message.content === undefined || message.content === null) {
        if (!hasToolCalls)
          problems.push(
            problem("Invalid value for 'content': expected a string, got null.", `${at}.content`),
          );
      } else {
        problems.push(...checkContent(message.content, `${at}.content`, false));
      }
    } else if (role === 'tool') {
      problems.push(...checkContent(message.content, `${at}.content`, true));
      problems.push(...refuseImageParts(message.content, `${at}.content`, role));
      const id = message.tool_call_id;
      if (id === undefined || id === null) problems.push(missing(`${at}.tool_call_id`));
      else if (typeof id !== 'string') problems.push(invalidType(`${at}.tool_call_id`, 'a string', id));
      else if (!run) {
        problems.push(
          problem(
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
            `${at}.role`,
          ),
        );
      } else if (!run.unanswered.delete(id)) {
        const why = run.ids.has(id) ? ' (it was already answered)' : '';
        problems.push(
          problem(
            `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message${why}.`,
            `${at}.tool_call_id`,
          ),
        );
      }
    }
  });
  closeRun();
  return problems;
}

export function validateTools(tools: unknown): RequestProblem[] {
  if (!Array.isArray(tools)) return [invalidType('tools', 'an array', tools)];
  const problems: RequestProblem[] = [];
  tools.forEach((tool: unknown, i) => {
    const at = `tools[${i}]`;
    if (!isObject(tool)) {
      problems.push(invalidType(at, 'an object', tool));
      return;
    }
    if (tool.type === undefined) problems.push(missing(`${at}.type`));
    else if (tool.type !== 'function') {
      problems.push(
        problem(
          `Invalid value: ${describeValue(tool.type)}. Supported values are: 'function'.`,
          `${at}.type`,
          'invalid_value',
        ),
      );
    }
    const fn = tool.function;
    if (fn === undefined || fn === null) {
      problems.push(missing(`${at}.function`));
      return;
    }
    if (!isObject(fn)) {
      problems.push(invalidType(`${at}.function`, 'an object', fn));
      return;
    }
    problems.push(...checkFunctionName(fn.name, `${at}.function.name`));
    if (fn.parameters !== undefined && !isObject(fn.parameters)) {
      problems.push(invalidType(`${at}.function.parameters`, 'an object', fn.parameters));
    }
  });
  return problems;
}

/** Returns the call ids, reporting malformed calls into `problems`. */
function checkAssistantToolCalls(toolCalls: unknown, at: string, problems: RequestProblem[]): Set<string> {
  const ids = new Set<string>();
  if (!Array.isArray(toolCalls)) {
    problems.push(invalidType(`${at}.tool_calls`, 'an array', toolCalls));
    return ids;
  }
  if (toolCalls.length === 0) {
    problems.push(emptyArray(`${at}.tool_calls`));
    return ids;
  }
  toolCalls.forEach((call: unknown, j) => {
    const callAt = `${at}.tool_calls[${j}]`;
    if (!isObject(call)) {
      problems.push(invalidType(callAt, 'an object', call));
      return;
    }
    if (typeof call.id !== 'string' || call.id === '') problems.push(missing(`${callAt}.id`));
    else ids.add(call.id);
    if (call.type === undefined) problems.push(missing(`${callAt}.type`));
    else if (call.type !== 'function') {
      problems.push(
        problem(
          `Invalid value: ${describeValue(call.type)}. Supported values are: 'function'.`,
          `${callAt}.type`,
          'invalid_value',
        ),
      );
    }
    if (!isObject(call.function)) {
      problems.push(missing(`${callAt}.function`));
      return;
    }
    problems.push(...checkFunctionName(call.function.name, `${callAt}.function.name`));
    if (call.function.arguments === undefined) problems.push(missing(`${callAt}.function.arguments`));
    else if (typeof call.function.arguments !== 'string') {
      problems.push(invalidType(`${callAt}.function.arguments`, 'a string', call.function.arguments));
    }
  });
  return ids;
}

function checkContent(content: unknown, at: string, required: boolean): RequestProblem[] {
  if (content === undefined || content === null) return required ? [missing(at)] : [];
  if (typeof content === 'string') return [];
  if (!Array.isArray(content)) return [invalidType(at, 'one of a string or array of objects', content)];
  if (content.length === 0) return [emptyArray(at)];
  return content.flatMap((part: unknown, k) =>
    isObject(part) && typeof part.type === 'string' ? [] : [missing(`${at}[${k}].type`)],
  );
}

/** Image parts as the real API takes them: an http(s) URL or a base64 data URL of an image type. */
function checkImageParts(content: unknown, at: string): RequestProblem[] {
  if (!Array.isArray(content)) return [];
  const problems: RequestProblem[] = [];
  content.forEach((part: unknown, k) => {
    if (!isObject(part) || part.type !== 'image_url') return;
    const image = part.image_url;
    const url = isObject(image) ? image.url : undefined;
    if (typeof url !== 'string') {
      problems.push(missing(`${at}[${k}].image_url.url`));
      return;
    }
    if (/^https?:\/\//.test(url)) return;
    if (/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/.test(url)) return;
    problems.push(
      problem(
        `Invalid '${at}[${k}].image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value that is not one.`,
        `${at}[${k}].image_url.url`,
        'invalid_value',
      ),
    );
  });
  return problems;
}

function refuseImageParts(content: unknown, at: string, role: unknown): RequestProblem[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown, k) =>
    isObject(part) && part.type === 'image_url'
      ? [
          problem(
            `Invalid '${at}[${k}]'. Image URLs are only allowed for messages with role 'user', but this message with role '${String(role)}' contains an image URL.`,
            `${at}[${k}]`,
            'invalid_value',
          ),
        ]
      : [],
  );
}

function checkFunctionName(name: unknown, at: string): RequestProblem[] {
  if (name === undefined || name === null) return [missing(at)];
  if (typeof name !== 'string') return [invalidType(at, 'a string', name)];
  if (!TOOL_NAME.test(name)) {
    return [
      problem(
        `Invalid '${at}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.`,
        at,
        'invalid_value',
      ),
    ];
  }
  return [];
}

function unansweredCalls(index: number, ids: string[]): RequestProblem {
  return problem(
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
      `The following tool_call_ids did not have response messages: ${ids.join(', ')}`,
    `messages[${index}].role`,
  );
}

function problem(message: string, param: string | null, code: string | null = null): RequestProblem {
  return { message, param, code };
}

function missing(param: string): RequestProblem {
  return problem(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

function invalidType(param: string, expected: string, value: unknown): RequestProblem {
  return problem(
    `Invalid type for '${param}': expected ${expected}, but got ${typeName(value)} instead.`,
    param,
    'invalid_type',
  );
}

function emptyArray(param: string): RequestProblem {
  return problem(
    `Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
    param,
    'empty_array',
  );
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
