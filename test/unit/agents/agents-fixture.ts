// What the CLI sub-agent tests share: a conversation's child folders, the scripted model's
// delegate and finish calls, and the tools a request offered.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Json = Record<string, unknown>;

/** The folders of the agents `parent` delegated to (none yet: empty). */
export function childDirs(parent: string): string[] {
  const root = join(parent, 'agents');
  return existsSync(root) ? readdirSync(root).map((n) => join(root, n)) : [];
}

/** A scripted `delegate` call handing `task` to one agent of `type`. */
export const delegateCall = (id: string, task: string, type: string) => ({
  id,
  name: 'delegate',
  arguments: { command: 'delegate', ids: [id], agent_types: [type], tasks: { [id]: task } },
});

/** A scripted reply that calls `finish` with `message`. */
export const finish = (id: string, message: string) => ({
  toolCalls: [{ id, name: 'finish', arguments: { message } }],
});

/** The tool names offered by the request whose last message is the user's `task`. */
export function toolsOfferedFor(bodies: Json[], task: string): string[] {
  const body = bodies.find((b) => {
    const last = (b.messages as Json[]).at(-1)!;
    return last.role === 'user' && JSON.stringify(last.content).includes(task);
  });
  assert.ok(body, `no request for "${task}"`);
  return ((body.tools as Json[] | undefined) ?? []).map((t) => String((t.function as Json).name));
}
