// Delegated agents this window has not opened (they ended before it opened the conversation): their
// logs are read without the writer lock, so the chat still shows their steps and the agents they
// delegated to. Only folders of the form the parent's log records (`agents/<id>`) are followed.
import { join } from 'node:path';
import { isCorruptRecord } from '../../../core/log/event-store';
import { AGENTS_FOLDER } from '../../node/agents/child-runner';
import { openReadOnly } from '../../node/cli/conversation-dir';
import type { SequencedEvent } from '../chat/chat-backend';
import type { TreeLink } from './agent-links';

const CHILD_FOLDER = new RegExp(`^${AGENTS_FOLDER}/[\\w-]+$`);

/** Each agent's folder, from the tree's links (parents first) and the root conversation's folder. */
export function agentFolders(
  rootId: string,
  rootDir: string,
  links: readonly TreeLink[],
): Map<string, string> {
  const dirs = new Map<string, string>([[rootId, rootDir]]);
  for (const l of links) {
    const parent = dirs.get(l.parentConversationId);
    if (parent && CHILD_FOLDER.test(l.folder)) dirs.set(l.conversationId, join(parent, l.folder));
  }
  return dirs;
}

/** The events of a log after `afterSeq`, as the chat receives them (unreadable records as they are). */
export async function closedLogEventsAfter(dir: string, afterSeq: number): Promise<SequencedEvent[]> {
  const store = await openReadOnly(dir);
  try {
    const out: SequencedEvent[] = [];
    let seq = Math.max(0, afterSeq + 1);
    for await (const slot of store.iterate(seq)) {
      out.push({
        seq,
        event: (isCorruptRecord(slot)
          ? { ...slot }
          : JSON.parse(JSON.stringify(slot))) as SequencedEvent['event'],
      });
      seq++;
    }
    return out;
  } finally {
    await store.close();
  }
}
