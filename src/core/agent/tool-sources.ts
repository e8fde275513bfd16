// Several sources of tools from outside (MCP servers, the editor's own tools) as the one
// ToolSource a conversation takes.
import type { ToolSpec } from '../tools';
import type { ToolSource, ToolSourceNotice } from './ports';

export function joinToolSources(sources: readonly ToolSource[]): ToolSource {
  if (sources.length === 1) return sources[0]!;
  let last: { parts: (readonly ToolSpec[])[]; all: readonly ToolSpec[] } | undefined;
  return {
    prepare: async () => {
      await Promise.all(sources.map((s) => s.prepare()));
    },
    // The same array while no source's list changes, so callers may cache by identity.
    tools: () => {
      const parts = sources.map((s) => s.tools());
      if (!last || parts.some((p, i) => p !== last!.parts[i])) last = { parts, all: parts.flat() };
      return last.all;
    },
    takeNotices: (): ToolSourceNotice[] => sources.flatMap((s) => s.takeNotices()),
  };
}
