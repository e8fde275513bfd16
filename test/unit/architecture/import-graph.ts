// The import graph of a source folder (.ts and .tsx), read with the TypeScript compiler API (no
// extra tool): every static import, re-export, `import type`, `import()` and `require()` counts,
// because a circle through types still ties modules together for whoever reads or moves them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import as written: the importing file, the specifier, and the file it resolves to (if local). */
export interface ImportEdge {
  from: string;
  specifier: string;
  to: string | undefined;
}

/** Every .ts file under `dir`, as absolute paths, in a stable order. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** The module specifiers a file names: declarations at any depth, dynamic imports and requires. */
export function importSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    false,
    fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1) {
      const [first] = node.arguments;
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if ((isImport || isRequire) && first && ts.isStringLiteralLike(first)) found.push(first.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** All imports of the files under `srcDir`, resolved the way the project's tsconfig resolves them. */
export function importEdges(srcDir: string, options: ts.CompilerOptions): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(srcDir)) {
    for (const specifier of importSpecifiers(file, readFileSync(file, 'utf8'))) {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
      const local = resolved && !resolved.isExternalLibraryImport ? resolved.resolvedFileName : undefined;
      edges.push({ from: file, specifier, to: local });
    }
  }
  return edges;
}

/** The compiler options of the tsconfig at `configPath`, as the compiler itself reads them. */
export function compilerOptions(configPath: string): ts.CompilerOptions {
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, join(configPath, '..')).options;
}

/** Adjacency lists of the local files only, each list sorted and without repeats. */
export function localGraph(edges: readonly ImportEdge[]): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    if (to === undefined) continue;
    graph.get(from)!.add(to);
    if (!graph.has(to)) graph.set(to, new Set());
  }
  return new Map([...graph].map(([node, targets]) => [node, [...targets].sort()]));
}

/** A knot of files that import one another: all its members, and one concrete loop through them. */
export interface Circle {
  members: string[];
  loop: string[];
}

/**
 * The circles of a graph: each strongly connected component with more than one node, or one node
 * importing itself (Tarjan's algorithm, iterative so a deep graph cannot overflow the stack).
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): Circle[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;

  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; child: number }[] = [{ node: root, child: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.child < targets.length) {
        const target = targets[frame.child++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components
    .map((component) => ({ members: [...component].sort(), loop: loopThrough(graph, component) }))
    .sort((a, b) => a.loop[0]!.localeCompare(b.loop[0]!));
}

/** A shortest loop from the component's first node (alphabetically) back to itself, inside the component. */
function loopThrough(graph: ReadonlyMap<string, readonly string[]>, component: readonly string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** A path as the repository names it, with forward slashes on every platform. */
export function repoPath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

/** What the files of one layer may import: local files only under `localImports`, and no banned package. */
export interface LayerRule {
  /** The folder the rule applies to, e.g. `src/core`. */
  layer: string;
  /** Folders (or single files) its local imports must stay within. */
  localImports: readonly string[];
  /** Packages it must never import, e.g. `vscode` (a subpath like `vscode/x` counts too). */
  bannedPackages: readonly string[];
  /** Why, for the failure message. */
  why: string;
}

const within = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`);

/** Each import that breaks a rule, as "importing file -> target (why)"; [] when the layers hold. */
export function layerViolations(
  root: string,
  edges: readonly ImportEdge[],
  rules: readonly LayerRule[],
): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    const from = repoPath(root, edge.from);
    for (const rule of rules.filter((r) => within(from, r.layer))) {
      if (edge.to !== undefined) {
        const to = repoPath(root, edge.to);
        if (!rule.localImports.some((allowed) => within(to, allowed)))
          found.push(`${from} -> ${to} (${rule.layer}: ${rule.why})`);
      } else if (rule.bannedPackages.some((banned) => within(edge.specifier, banned))) {
        found.push(`${from} -> ${edge.specifier} (${rule.layer}: ${rule.why})`);
      }
    }
  }
  return found;
}
