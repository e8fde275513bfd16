/** The tool ports for plain Node: the CLI, benchmarks and tests use these. */
import type { ToolPorts } from '../../../core/tools/ports';
import { NodeFilePort } from './node-file-port';
import { NodeSearchPort, type NodeSearchPortOptions } from './node-search-port';
import { NodeTerminalPort, type NodeTerminalPortOptions } from './node-terminal-port';
import { TempScratchPort } from './temp-scratch-port';

export { NodeFilePort } from './node-file-port';
export { NodeSearchPort, type NodeSearchPortOptions } from './node-search-port';
export { NodeTerminalPort, type NodeTerminalPortOptions } from './node-terminal-port';
export { TempScratchPort } from './temp-scratch-port';
export { globMatcher } from './glob-pattern';

export interface NodePortsOptions {
  /** Workspace folders; the first is where the terminal starts. */
  roots: readonly string[];
  /** Where large outputs are saved for the agent to read. */
  scratchDir: string;
  terminal?: Omit<NodeTerminalPortOptions, 'cwd'>;
  search?: NodeSearchPortOptions;
}

/** All four ports for one conversation. Call `terminal.dispose()` when it ends. */
export function createNodePorts(options: NodePortsOptions): ToolPorts & { terminal: NodeTerminalPort } {
  const cwd = options.roots[0];
  if (!cwd) throw new Error('createNodePorts needs at least one workspace root.');
  return {
    files: new NodeFilePort(options.roots),
    terminal: new NodeTerminalPort({ ...options.terminal, cwd }),
    search: new NodeSearchPort(options.search),
    scratch: new TempScratchPort(options.scratchDir),
  };
}
