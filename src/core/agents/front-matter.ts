// The front matter of an agent definition: the `---` block at the top of a Markdown file, in the
// small subset of YAML such files use (`key: value`, quoted strings, numbers, `[a, b]` lists and
// `- item` lists). Anything else is an error with its line, never a silently dropped field.

export type FrontValue = string | number | boolean | string[];

export interface FrontMatter {
  fields: Record<string, FrontValue>;
  /** The Markdown after the block. */
  body: string;
}

export class FrontMatterError extends Error {
  override name = 'FrontMatterError';
}

export function parseFrontMatter(text: string): FrontMatter {
  const source = text.replace(/^\uFEFF/, '');
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!m) throw new FrontMatterError('it does not start with a front matter block (--- … ---)');
  const fields: Record<string, FrontValue> = {};
  let listKey: string | null = null;
  const lines = m[1]!.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.replace(/\s+#.*$/, '');
    if (!line.trim() || line.trim().startsWith('#')) return;
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item) {
      const list = listKey === null ? undefined : fields[listKey];
      if (!Array.isArray(list)) throw new FrontMatterError(`line ${i + 2}: a list item outside a list`);
      list.push(String(scalar(item[1]!)));
      return;
    }
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) throw new FrontMatterError(`line ${i + 2}: expected "key: value", got "${raw.trim()}"`);
    const key = kv[1]!.replace(/-/g, '_');
    const rest = kv[2]!.trim();
    if (Object.hasOwn(fields, key)) throw new FrontMatterError(`line ${i + 2}: "${kv[1]}" is given twice`);
    if (rest === '') {
      fields[key] = [];
      listKey = key;
      return;
    }
    listKey = null;
    fields[key] = rest.startsWith('[') ? inlineList(rest, i + 2) : scalar(rest);
  });
  return { fields, body: source.slice(m[0].length).trim() };
}

function inlineList(text: string, line: number): string[] {
  if (!text.endsWith(']')) throw new FrontMatterError(`line ${line}: a list must end with "]"`);
  const inner = text.slice(1, -1).trim();
  return inner ? inner.split(',').map((s) => String(scalar(s.trim()))) : [];
}

function scalar(text: string): string | number | boolean {
  const quoted = /^"(.*)"$/.exec(text) ?? /^'(.*)'$/.exec(text);
  if (quoted) return quoted[1]!;
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}
