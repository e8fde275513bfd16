// The VS Code implementations of the core's FilePort and TerminalPort.
export {
  WorkspaceFilePort,
  OutsideWorkspaceError,
  type WorkspaceFilePortOptions,
} from './workspace-file-port';
export {
  IntegratedTerminalPort,
  type IntegratedTerminalPortOptions,
  type TerminalMode,
} from './terminal-port';
export { ConversationTerminals } from './conversation-terminals';
export { stripAnsi } from './strip-ansi';
