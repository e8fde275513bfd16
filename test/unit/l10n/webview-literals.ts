// Finds English the chat would show without going through its dictionary: text between JSX tags,
// string literals given to attributes a person reads or hears (title, aria-label, placeholder, alt,
// and the components' label/text props), strings a JSX expression renders directly, and strings
// set as the label, title, text, note or hint of an object (the cards' lookup tables).
import ts from 'typescript';

export interface Literal {
  line: number;
  text: string;
}

/** Attributes whose value is read or spoken: a literal there is a word the user meets. */
const READ_ATTRIBUTES = new Set([
  'title',
  'aria-label',
  'aria-valuetext',
  'aria-description',
  'placeholder',
  'alt',
  'label',
  'text',
  'submitLabel',
]);

/** Object properties the cards render as words (e.g. `{ icon, text, tone }` of a notice line). */
const READ_PROPERTIES = new Set(['label', 'title', 'text', 'note', 'hint']);

const hasWord = (s: string): boolean => /\p{L}{2,}/u.test(s);

/** The literal strings an expression may evaluate to, looking through ?:, &&, || and ?? only. */
function renderedStrings(node: ts.Node, out: ts.Node[]): void {
  if (ts.isParenthesizedExpression(node)) return renderedStrings(node.expression, out);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
    out.push(node);
    return;
  }
  if (ts.isConditionalExpression(node)) {
    renderedStrings(node.whenTrue, out);
    renderedStrings(node.whenFalse, out);
    return;
  }
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) renderedStrings(node.right, out);
    else if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken) {
      renderedStrings(node.left, out);
      renderedStrings(node.right, out);
    }
  }
}

/** The words of a literal: a template's fixed parts only (its holes are data). */
function wordsOf(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return '';
}

export function findLiterals(source: string, fileName = 'x.tsx'): Literal[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Literal[] = [];
  const report = (node: ts.Node, text: string) => {
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    found.push({ line, text: text.trim().replace(/\s+/g, ' ') });
  };
  const reportStrings = (expr: ts.Node) => {
    const strings: ts.Node[] = [];
    renderedStrings(expr, strings);
    for (const s of strings) if (hasWord(wordsOf(s))) report(s, wordsOf(s));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && hasWord(node.text)) report(node, node.text);
    else if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(file)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init)) {
        if (hasWord(init.text)) report(init, init.text);
      } else if (ts.isJsxExpression(init) && init.expression) reportStrings(init.expression);
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent))
      reportStrings(node.expression);
    else if (
      ts.isPropertyAssignment(node) &&
      READ_PROPERTIES.has(node.name.getText(file)) &&
      !ts.isJsxAttribute(node.parent)
    )
      reportStrings(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
