// Installs the stand-in for 'vscode' (vscode-stand-in.cjs) as <parent>/node_modules/vscode, where a
// bundle under <parent> finds it: the API's top-level names, read from @types/vscode, and the
// settings' defaults the package contributes, which a fresh VS Code answers for each setting.
import fs from 'node:fs';
import path from 'node:path';

const repoRoot = path.join(__dirname, '..', '..');

export function installVscodeStandIn(parent: string): void {
  const dir = path.join(parent, 'node_modules', 'vscode');
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(__dirname, 'vscode-stand-in.cjs'), path.join(dir, 'index.js'));
  const types = fs.readFileSync(path.join(repoRoot, 'node_modules/@types/vscode/index.d.ts'), 'utf8');
  const names = [...types.matchAll(/^\s*export (?:namespace|class|enum|const|function|let) (\w+)/gm)].map(
    (m) => m[1]!,
  );
  fs.writeFileSync(path.join(dir, 'names.json'), JSON.stringify([...new Set(names)]));
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> }[] };
  };
  const defaults = Object.fromEntries(
    manifest.contributes.configuration.flatMap((c) =>
      Object.entries(c.properties).map(([k, p]) => [k, p.default]),
    ),
  );
  fs.writeFileSync(path.join(dir, 'defaults.json'), JSON.stringify(defaults));
}
