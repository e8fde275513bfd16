// The strings the extension host shows through `vscode.l10n.t(...)`, found in its source, in order
// of appearance. A call whose message is not a literal cannot be translated, so it is reported.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface HostStrings {
  strings: string[];
  problems: string[];
}

export function hostStrings(root: string, folders: readonly string[]): HostStrings {
  const strings = new Set<string>();
  const problems: string[] = [];
  for (const file of folders.flatMap((f) => sourceFiles(join(root, f)))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isL10nCall(node.expression)) {
        const first = node.arguments[0];
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
          strings.add(first.text);
        } else {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          problems.push(`${relative(root, file)}:${line + 1}: the message of l10n.t is not a literal`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { strings: [...strings], problems };
}

/** `vscode.l10n.t` or `l10n.t`. */
function isL10nCall(callee: ts.Expression): boolean {
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 't') return false;
  const owner = callee.expression;
  if (ts.isIdentifier(owner)) return owner.text === 'l10n';
  return ts.isPropertyAccessExpression(owner) && owner.name.text === 'l10n';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}
