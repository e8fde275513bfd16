/**
 * Sets or removes one property of a settings file written in JSON with comments (VS Code's
 * settings.json, a .code-workspace file), changing only the text of that property: the comments,
 * order and layout of everything else stay as the user wrote them.
 */

/** A value's place in the text: [start, end). */
interface Span {
  start: number;
  end: number;
}

type JsoncNode =
  (Span & { kind: 'object'; members: Member[] }) | (Span & { kind: 'array' }) | (Span & { kind: 'scalar' });

interface Member {
  key: string;
  /** Where the key's opening quote is. */
  start: number;
  value: JsoncNode;
  /** Where the comma after the value is, if one follows it. */
  comma?: number;
}

/** The text is not JSON with comments; `offset` is where reading it stopped. */
export class JsoncSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
  }
}

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

class Reader {
  constructor(private readonly text: string) {}

  /** The offset of the next character that is not blank or part of a comment. */
  skip(at: number): number {
    const t = this.text;
    for (;;) {
      while (at < t.length && /\s/.test(t[at]!)) at++;
      if (t.startsWith('//', at)) {
        const eol = t.indexOf('\n', at);
        at = eol < 0 ? t.length : eol + 1;
      } else if (t.startsWith('/*', at)) {
        const close = t.indexOf('*/', at + 2);
        if (close < 0) throw new JsoncSyntaxError('an unclosed comment', at);
        at = close + 2;
      } else return at;
    }
  }

  value(from: number): JsoncNode {
    const at = this.skip(from);
    const c = this.text[at];
    if (c === '{') return this.object(at);
    if (c === '[') return this.array(at);
    if (c === '"') return { kind: 'scalar', start: at, end: this.string(at) };
    SCALAR.lastIndex = at;
    const m = SCALAR.exec(this.text);
    if (!m) {
      const missing = c === undefined || '}],'.includes(c);
      throw new JsoncSyntaxError(missing ? 'a value missing' : 'an unexpected character', at);
    }
    return { kind: 'scalar', start: at, end: at + m[0].length };
  }

  /** The end of the string that opens at `at`. */
  private string(at: number): number {
    for (let i = at + 1; i < this.text.length; i++) {
      const c = this.text[i];
      if (c === '\\') i++;
      else if (c === '"') return i + 1;
      else if (c === '\n') break;
    }
    throw new JsoncSyntaxError('an unclosed string', at);
  }

  private key(start: number, end: number): string {
    try {
      return JSON.parse(this.text.slice(start, end)) as string;
    } catch {
      throw new JsoncSyntaxError('a property name that is not a JSON string', start);
    }
  }

  private object(start: number): JsoncNode {
    const members: Member[] = [];
    let at = this.skip(start + 1);
    while (this.text[at] !== '}') {
      if (this.text[at] !== '"') throw new JsoncSyntaxError('a property name missing', at);
      const keyEnd = this.string(at);
      const key = this.key(at, keyEnd);
      const colon = this.skip(keyEnd);
      if (this.text[colon] !== ':') throw new JsoncSyntaxError('a colon missing', colon);
      const value = this.value(colon + 1);
      const member: Member = { key, start: at, value };
      members.push(member);
      at = this.skip(value.end);
      if (this.text[at] === ',') {
        member.comma = at;
        at = this.skip(at + 1);
      } else if (this.text[at] !== '}') throw new JsoncSyntaxError('a comma or } missing', at);
    }
    return { kind: 'object', start, end: at + 1, members };
  }

  private array(start: number): JsoncNode {
    let at = this.skip(start + 1);
    while (this.text[at] !== ']') {
      at = this.skip(this.value(at).end);
      if (this.text[at] === ',') at = this.skip(at + 1);
      else if (this.text[at] !== ']') throw new JsoncSyntaxError('a comma or ] missing', at);
    }
    return { kind: 'array', start, end: at + 1 };
  }
}

/** The top-level object of `text`, or undefined when it holds none (blank, or only comments). */
function parseRoot(text: string): Extract<JsoncNode, { kind: 'object' }> | undefined {
  const reader = new Reader(text);
  if (reader.skip(0) === text.length) return undefined;
  const root = reader.value(0);
  const after = reader.skip(root.end);
  if (after !== text.length) throw new JsoncSyntaxError('more text after the end', after);
  if (root.kind !== 'object') throw new JsoncSyntaxError('not an object', root.start);
  return root;
}

/** Checks that `text` is JSON with comments whose top level is an object (or blank). */
export function checkJsonc(text: string): void {
  parseRoot(text);
}

interface Layout {
  /** One level of indentation. */
  unit: string;
  eol: string;
}

function layoutOf(text: string): Layout {
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  return {
    unit: indented === undefined ? '    ' : indented.startsWith('\t') ? '\t' : indented,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** The blanks that open the line `at` is on. */
function indentAt(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function serialized(value: unknown, indent: string, layout: Layout): string {
  return JSON.stringify(value, null, layout.unit)
    .split('\n')
    .join(layout.eol + indent);
}

/** `value` under the keys of `path`, innermost last: {a: {b: value}} for [a, b]. */
function nested(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

const splice = (text: string, span: Span, insert: string) =>
  text.slice(0, span.start) + insert + text.slice(span.end);

function withMember(
  text: string,
  object: Extract<JsoncNode, { kind: 'object' }>,
  key: string,
  value: unknown,
  layout: Layout,
): string {
  const last = object.members.at(-1);
  const outer = indentAt(text, object.start);
  if (last === undefined) {
    const inner = outer + layout.unit;
    const member = `${JSON.stringify(key)}: ${serialized(value, inner, layout)}`;
    const body = text.slice(object.start + 1, object.end - 1);
    // An empty object keeps what it held (a comment) before the new member.
    const kept = body.trim() === '' ? '' : body.trimEnd();
    const insert = `${kept}${layout.eol}${inner}${member}${layout.eol}${outer}`;
    return splice(text, { start: object.start + 1, end: object.end - 1 }, insert);
  }
  const onOneLine = !text.slice(object.start, last.start).includes('\n');
  if (onOneLine) {
    const member = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    return splice(text, { start: last.value.end, end: last.value.end }, `, ${member}`);
  }
  const inner = indentAt(text, object.members[0]!.start);
  const member = `${JSON.stringify(key)}: ${serialized(value, inner, layout)}`;
  return splice(text, { start: last.value.end, end: last.value.end }, `,${layout.eol}${inner}${member}`);
}

function withoutMember(text: string, object: Extract<JsoncNode, { kind: 'object' }>, index: number): string {
  const member = object.members[index]!;
  const previous = object.members[index - 1];
  if (member.comma === undefined) {
    // The last member: the comma before it goes with it.
    const start = previous?.comma ?? object.start + 1;
    return splice(text, { start, end: member.value.end }, '');
  }
  // A member with its comma: its whole line goes when nothing else is on it.
  const lineStart = text.lastIndexOf('\n', member.start - 1) + 1;
  const alone = text.slice(lineStart, member.start).trim() === '';
  const blanks = /^[ \t]*(\r?\n)?/.exec(text.slice(member.comma + 1))!;
  const end = member.comma + 1 + blanks[0].length - (alone ? 0 : (blanks[1]?.length ?? 0));
  return splice(text, { start: alone ? lineStart : member.start, end }, '');
}

/**
 * `text` with the property at `path` set to `value`, or removed when `value` is undefined; the
 * objects on the way are made when missing. Throws JsoncSyntaxError when `text` is not JSON with
 * comments holding an object; blank text is taken as an empty object.
 */
export function setJsoncProperty(text: string, path: readonly string[], value: unknown): string {
  if (path.length === 0) throw new Error('A property path names at least one key.');
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  return bom + edited(body, path, value, layoutOf(body));
}

function edited(text: string, path: readonly string[], value: unknown, layout: Layout): string {
  const root = parseRoot(text);
  if (root === undefined) {
    if (value === undefined) return text;
    const prefix = text.trimEnd();
    return `${prefix}${prefix ? layout.eol : ''}${serialized(nested(path, value), '', layout)}${layout.eol}`;
  }
  let object = root;
  for (let depth = 0; ; depth++) {
    const key = path[depth]!;
    // Of a key written twice the last is the one read: that one is changed.
    const index = object.members.findLastIndex((m) => m.key === key);
    const member = object.members[index];
    if (depth === path.length - 1 || member?.value.kind !== 'object') {
      const inner = nested(path.slice(depth + 1), value);
      if (member === undefined)
        return value === undefined ? text : withMember(text, object, key, inner, layout);
      if (value === undefined) {
        if (depth < path.length - 1) return text;
        // Each copy of a key written twice goes.
        return edited(withoutMember(text, object, index), path, value, layout);
      }
      const indent = indentAt(text, member.start);
      return splice(text, member.value, serialized(inner, indent, layout));
    }
    object = member.value;
  }
}
