// A throwaway workspace with the Node ports, for running tools for real in tests.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createNodePorts } from '../../../src/host/node/ports';
import type { ToolContext, ToolObservation, ToolSpec } from '../../../src/core/tools';
import type { NodeTerminalPort } from '../../../src/host/node/ports';
import type { ToolPorts } from '../../../src/core/tools/ports';

export interface TestWorkspace {
  root: string;
  scratchDir: string;
  ports: ToolPorts & { terminal: NodeTerminalPort };
  ctx: ToolContext;
  /** Writes files relative to the root (creating folders). */
  write(files: Record<string, string>): void;
  path(relative: string): string;
  /** Runs a tool with raw (already validated) arguments. */
  run<A>(tool: ToolSpec<A>, args: A): Promise<ToolObservation>;
  dispose(): void;
}

export function createWorkspace(options: { rg?: boolean } = {}): TestWorkspace {
  // realpath: macOS tmp is a symlink, and the shell reports the resolved $PWD.
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-tools-')));
  const root = join(base, 'project');
  const scratchDir = join(base, 'scratch');
  mkdirSync(root);
  const ports = createNodePorts({
    roots: [root],
    scratchDir,
    ...(options.rg === false ? { search: { rgPath: false as const } } : {}),
  });
  const controller = new AbortController();
  const ctx: ToolContext = { ports, cwd: root, signal: controller.signal };
  return {
    root,
    scratchDir,
    ports,
    ctx,
    write(files) {
      for (const [name, text] of Object.entries(files)) {
        const file = join(root, name);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
    },
    path: (relative) => join(root, relative),
    run: (tool, args) => tool.execute(args, ctx),
    dispose() {
      ports.terminal.dispose();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

export function textOf(observation: ToolObservation): string {
  return observation.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
