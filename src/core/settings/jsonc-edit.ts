/**
 * Sets or removes one property of a settings file written in JSON with comments (VS Code's
 * settings.json, a .code-workspace file), changing only the text of that property: the comments,
 * order and layout of everything else stay as the user wrote them. jsonc-parser (the parser VS
 * Code edits its own settings with) reads and edits the text; this module adds the file's own
 * layout, a kept byte order mark, and the last copy of a key written twice (the one readers use).
 */
import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  format,
  getNodePath,
  modify,
  parseTree,
  printParseErrorCode,
  type Edit,
  type FormattingOptions,
  type Node,
  type ParseError,
  type SyntaxKind,
} from 'jsonc-parser';

/** The text is not JSON with comments; `offset` is where reading it stopped. */
export class JsoncSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
  }
}

/** What each of jsonc-parser's errors means to someone reading the file. */
const PROBLEMS: Record<ReturnType<typeof printParseErrorCode>, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a number that is not written as JSON',
  PropertyNameExpected: 'a property name missing',
  ValueExpected: 'a value missing',
  ColonExpected: 'a colon missing',
  CommaExpected: 'a comma missing',
  CloseBraceExpected: 'a } missing',
  CloseBracketExpected: 'a ] missing',
  EndOfFileExpected: 'more text after the end',
  InvalidCommentToken: 'a comment that is not closed properly',
  UnexpectedEndOfComment: 'an unclosed comment',
  UnexpectedEndOfString: 'an unclosed string',
  UnexpectedEndOfNumber: 'an unfinished number',
  InvalidUnicode: 'an invalid \\u escape',
  InvalidEscapeCharacter: 'an invalid escape in a string',
  InvalidCharacter: 'a control character in a string',
  '<unknown ParseErrorCode>': 'text that is not JSON',
};

/** The top-level object of `text`, or undefined when it holds none (blank, or only comments). */
function parseRoot(text: string): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  const first = errors[0];
  if (first) throw new JsoncSyntaxError(PROBLEMS[printParseErrorCode(first.error)], first.offset);
  if (root && root.type !== 'object') throw new JsoncSyntaxError('not an object', root.offset);
  return root;
}

/** Checks that `text` is JSON with comments whose top level is an object (or blank). */
export function checkJsonc(text: string): void {
  parseRoot(text);
}

/** The file's own indentation (its first indented line's) and line ends, for the text added. */
function layoutOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  const tabs = indent?.startsWith('\t') ?? false;
  return {
    insertSpaces: !tabs,
    tabSize: tabs || indent === undefined ? 4 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** The value of `object`'s property `key`, the last copy when it is written twice. */
function memberValue(object: Node, key: string): Node | undefined {
  return object.children?.findLast((p) => p.children?.[0]?.value === key)?.children?.[1];
}

/** `value` under the keys of `path`, innermost last: {a: {b: value}} for [a, b]. */
function nested(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/**
 * `node`'s value replaced by `value`, laid out as the file is, as jsonc-parser's `modify` does; here
 * because `modify` finds the first copy of a key written twice, and readers take the last.
 */
function replaced(text: string, node: Node, value: unknown, layout: FormattingOptions): string {
  const content = JSON.stringify(value);
  const edited = applyEdits(text, [{ offset: node.offset, length: node.length, content }]);
  const range = { offset: node.offset, length: content.length };
  return applyEdits(edited, format(edited, range, { ...layout, keepLines: false }));
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

function edited(text: string, path: readonly string[], value: unknown, layout: FormattingOptions): string {
  const root = parseRoot(text);
  if (root === undefined) {
    if (value === undefined) return text;
    // Only comments, or nothing: they stay, and the object follows them.
    const made = applyEdits('{}', modify('{}', [...path], value, { formattingOptions: layout }));
    const prefix = text.trimEnd();
    return `${prefix}${prefix ? layout.eol : ''}${made}${layout.eol}`;
  }
  // The objects on the way, each the last copy of its key, as readers of the file take it.
  let object = root;
  let depth = 0;
  for (; depth < path.length - 1; depth++) {
    const inner = memberValue(object, path[depth]!);
    if (inner?.type !== 'object') break;
    object = inner;
  }
  const key = path[depth]!;
  const current = memberValue(object, key);
  if (value === undefined) {
    if (current === undefined || depth < path.length - 1) return text;
    // Each copy of a key written twice goes.
    return edited(applyEdits(text, removal(text, current.parent!)), path, value, layout);
  }
  const inner = nested(path.slice(depth + 1), value);
  if (current !== undefined) return replaced(text, current, inner, layout);
  const insertion = modify(text, [...pathTo(root, object), key], inner, { formattingOptions: layout });
  return applyEdits(text, insertion);
}

/**
 * The keys that lead jsonc-parser's `modify` to `object`. It takes the first copy of a key written
 * twice: when that is not the copy on the way (the one readers take), the file is refused, saying
 * which key to write once, rather than edited where no reader looks.
 */
function pathTo(root: Node, object: Node): string[] {
  const path = getNodePath(object) as string[];
  if (findNodeAtLocation(root, path) === object) return path;
  let node = root;
  for (const [i, key] of path.entries()) {
    node = memberValue(node, key)!;
    if (findNodeAtLocation(root, path.slice(0, i + 1)) !== node)
      throw new JsoncSyntaxError(`the key ${JSON.stringify(key)} written twice`, node.parent!.offset);
  }
  return path;
}

/** jsonc-parser's token kind for a comma: its enum is declared `const`, with no values at run time. */
const COMMA: SyntaxKind.CommaToken = 5;

/** Where the comma after `offset` is, when the next thing there (past blanks and comments) is one. */
function commaAfter(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, true);
  scanner.setPosition(offset);
  return scanner.scan() === COMMA ? scanner.getTokenOffset() : undefined;
}

/**
 * The edits that remove `property` with one comma, and its line when nothing else is on it.
 * jsonc-parser's `modify` removes everything from the previous value's end (or the object's
 * start), and with it the comments written in between: those stay here.
 */
function removal(text: string, property: Node): Edit[] {
  const end = property.offset + property.length;
  const lineStart = text.lastIndexOf('\n', property.offset - 1) + 1;
  const alone = text.slice(lineStart, property.offset).trim() === '';
  const cut = (from: number, to: number): Edit => ({ offset: from, length: to - from, content: '' });
  const comma = commaAfter(text, end);
  if (comma !== undefined) {
    // With the comma after it; with its whole line when nothing but blanks is left on it.
    const [blanks, lineBreak] = /^[ \t]*(\r?\n)?/.exec(text.slice(comma + 1))!;
    const wholeLine = alone && lineBreak !== undefined;
    const to = comma + 1 + blanks.length - (wholeLine ? 0 : (lineBreak?.length ?? 0));
    return [cut(wholeLine ? lineStart : property.offset, to)];
  }
  // The last one: with the comma before it, and the line break before it when its line goes.
  const siblings = property.parent!.children!;
  const previous = siblings[siblings.indexOf(property) - 1];
  const before = previous && commaAfter(text, previous.offset + previous.length);
  const commaCut = before === undefined ? [] : [cut(before, before + 1)];
  const [blanksAfter, restOfLine] = /^[ \t]*(\r?\n|$)?/.exec(text.slice(end))!;
  const lineBreakBefore = /\r?\n[ \t]*$/.exec(text.slice(0, property.offset));
  if (alone && restOfLine !== undefined && lineBreakBefore)
    return [...commaCut, cut(lineBreakBefore.index, end)];
  // A comment after it on its line stays where it was.
  if (alone) return [...commaCut, cut(property.offset, end + blanksAfter.length)];
  const blanksBefore = /[ \t]*$/.exec(text.slice(0, property.offset))![0];
  return [...commaCut, cut(property.offset - blanksBefore.length, end)];
}
