// The agents a replay offers: the copy's definitions and the user's, as they are now, less those the
// user has not accepted. A definition held in the recorded workspace (written while a conversation
// ran, definition-trust.ts) is held in the copy too, at the same place under the workspace.
import path from 'node:path';
import type { AgentDefinition } from '../../../core/agents/definition';
import type { Env } from '../config-dir';
import { loadAgents } from '../agents/agent-files';
import { heldHere } from '../agents/definition-watch';

export function replayAgents(copy: string, recordedWorkspace: string, env: Env): AgentDefinition[] {
  const heldInRecorded = new Set(
    heldHere(env, recordedWorkspace).map((h) => path.relative(recordedWorkspace, h.origin)),
  );
  return loadAgents({ workspace: copy, env, trusted: true }).agents.filter(
    (a) =>
      a.origin === 'built-in' ||
      path.relative(copy, a.origin).startsWith('..') ||
      !heldInRecorded.has(path.relative(copy, a.origin)),
  );
}
