// The names MCP tools are offered under. A tool keeps its own name, so the model and the user
// recognise it; a name taken by a built-in tool or an earlier server gets the server's name in
// front, and the rename is reported so the host can say so.

/** Chat Completions function names: letters, digits, `_` and `-`, at most 64. */
const NAME_LIMIT = 64;

export interface NamedTool {
  server: string;
  tool: { name: string };
}

/** The entry with the name the model calls. */
export type AssignedName<E extends NamedTool> = E & { exposed: string };

export interface NameAssignment<E extends NamedTool> {
  assigned: AssignedName<E>[];
  /** Human-readable notes: a tool renamed because of a clash or characters the model cannot use. */
  notes: string[];
}

export function assignToolNames<E extends NamedTool>(
  reserved: readonly string[],
  tools: readonly E[],
): NameAssignment<E> {
  const taken = new Set(reserved);
  const assigned: AssignedName<E>[] = [];
  const notes: string[] = [];
  for (const entry of tools) {
    const own = safeName(entry.tool.name);
    let exposed = own;
    if (taken.has(exposed)) {
      exposed = unique(safeName(`${entry.server}_${entry.tool.name}`), taken);
      notes.push(
        `The tool "${entry.tool.name}" of the MCP server "${entry.server}" is offered as "${exposed}": ` +
          `"${own}" is already the name of another tool.`,
      );
    } else if (own !== entry.tool.name) {
      notes.push(
        `The tool "${entry.tool.name}" of the MCP server "${entry.server}" is offered as "${own}" ` +
          '(tool names may only hold letters, digits, "_" and "-").',
      );
    }
    taken.add(exposed);
    assigned.push({ ...entry, exposed });
  }
  return { assigned, notes };
}

function safeName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, NAME_LIMIT);
  return cleaned === '' ? 'tool' : cleaned;
}

function unique(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = name.slice(0, NAME_LIMIT - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
