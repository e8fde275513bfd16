// The codicon for each tool, shared by every component that names a tool (cards, the approval bar,
// delegated agents, the stream): a module of its own so none of them imports another's component.
const TOOL_ICONS: Record<string, string> = {
  terminal: 'terminal',
  file_editor: 'file-code',
  finish: 'check-all',
  think: 'lightbulb',
  task_tracker: 'checklist',
  glob: 'search',
  grep: 'search',
  fetch: 'globe',
  web_search: 'search',
};

export function toolIcon(tool: string): string {
  return TOOL_ICONS[tool] ?? 'tools';
}
