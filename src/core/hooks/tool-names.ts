// Logbook's tools as Claude Code's hooks name them, so a matcher such as "Bash" or "Edit|Write" and
// a script reading `tool_input.command` or `tool_input.file_path` work unchanged. A tool without a
// counterpart keeps its own name and arguments. `updatedInput` in the Claude Code shape is mapped
// back to Logbook's arguments the same way.
type Args = Record<string, unknown>;

interface Mapped {
  name: string;
  input: Args;
}

const str = (v: unknown): v is string => typeof v === 'string';

/** The Claude Code name and input of a Logbook tool call; its own when there is no counterpart. */
export function claudeToolCall(tool: string, args: Args): Mapped {
  const pick = (o: Args) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  switch (tool) {
    case 'terminal':
      return { name: 'Bash', input: pick({ command: args['command'], timeout: args['timeout'] }) };
    case 'file_editor': {
      const file_path = args['path'];
      switch (args['command']) {
        case 'view':
          return { name: 'Read', input: pick({ file_path }) };
        case 'create':
          return { name: 'Write', input: pick({ file_path, content: args['file_text'] }) };
        case 'str_replace':
          return {
            name: 'Edit',
            input: pick({ file_path, old_string: args['old_str'], new_string: args['new_str'] ?? '' }),
          };
        case 'insert':
          return {
            name: 'Edit',
            input: pick({ file_path, new_string: args['new_str'], insert_line: args['insert_line'] }),
          };
        default:
          return { name: tool, input: args };
      }
    }
    case 'grep':
      return { name: 'Grep', input: pick({ pattern: args['pattern'], path: args['path'] }) };
    case 'glob':
      return { name: 'Glob', input: pick({ pattern: args['pattern'], path: args['path'] }) };
    case 'fetch':
      return { name: 'WebFetch', input: pick({ url: args['url'] }) };
    case 'web_search':
      return { name: 'WebSearch', input: pick({ query: args['query'] }) };
    default:
      return { name: tool, input: args };
  }
}

/** The names a matcher is tried against: Logbook's and, when it has one, Claude Code's. */
export function matcherNames(tool: string, args: Args): string[] {
  const claude = claudeToolCall(tool, args).name;
  return claude === tool ? [tool] : [tool, claude];
}

/**
 * A hook's `updatedInput` as Logbook's arguments for `tool`: the fields it names replace the
 * original's, in either shape; the rest of the original is kept. The result is checked by the
 * tool's own validation and rated by the gate like any call; it is never trusted as it is.
 */
export function logbookArgs(tool: string, original: Args, updated: Args): Args {
  const out: Args = { ...original };
  const set = (key: string, v: unknown) => {
    if (v !== undefined) out[key] = v;
  };
  switch (tool) {
    case 'terminal':
      set('command', updated['command']);
      set('timeout', updated['timeout']);
      return out;
    case 'file_editor':
      set('path', str(updated['file_path']) ? updated['file_path'] : updated['path']);
      set('file_text', updated['content'] ?? updated['file_text']);
      set('old_str', updated['old_string'] ?? updated['old_str']);
      set('new_str', updated['new_string'] ?? updated['new_str']);
      set('insert_line', updated['insert_line']);
      return out;
    default:
      return { ...original, ...updated };
  }
}
