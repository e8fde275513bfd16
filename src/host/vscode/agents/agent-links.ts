// The delegation tree of an open conversation in the editor, to any depth: each conversation's
// children as its own log names them (agent_start/agent_end), kept per conversation and read again
// when one of them records a start or an end. The chat's cards list every agent of the tree, each
// under the delegation that started it, so a grandchild's question reaches the user too.
import { AGENT_END_KEY, AGENT_START_KEY } from '../../../core/agents/agent-events';
import { agentTree, type ChildLink } from '../../../core/agents/agent-tree';
import type { Conversation } from '../../../core/agent/conversation';
import { openReadOnly, readEvents } from '../../node/cli/conversation-dir';

/** A delegated agent of the tree, with the conversation that delegated to it. */
export interface TreeLink extends ChildLink {
  parentConversationId: string;
}

export class AgentLinks {
  private readonly byConversation = new Map<string, ChildLink[]>();

  /** Reads `conversation`'s children from its log, now and at each start or end it records. */
  async follow(conversationId: string, conversation: Conversation, changed: () => void): Promise<void> {
    const refresh = async () => {
      this.byConversation.set(conversationId, agentTree(await conversation.events()).children);
    };
    conversation.onEvent((e) => {
      if (e.kind !== 'ConversationStateUpdateEvent' || (e.key !== AGENT_START_KEY && e.key !== AGENT_END_KEY))
        return;
      void refresh().then(changed, () => undefined);
    });
    // A log that names no other agent is not read (a long conversation opens without reading it).
    if (conversation.state.agentEvents === 0) this.byConversation.set(conversationId, []);
    else await refresh();
  }

  /** Reads the children of a log no session holds (an agent that ended), once. */
  async readClosed(conversationId: string, dir: string): Promise<void> {
    if (this.byConversation.has(conversationId)) return;
    const store = await openReadOnly(dir);
    try {
      this.byConversation.set(conversationId, agentTree((await readEvents(store)).events).children);
    } finally {
      await store.close();
    }
  }

  /** The children `conversationId`'s log names (none read yet: none). */
  of(conversationId: string): readonly ChildLink[] {
    return this.byConversation.get(conversationId) ?? [];
  }

  /** Every agent below `rootId`, parents before their children (the order the cards nest in). */
  below(rootId: string): TreeLink[] {
    const out: TreeLink[] = [];
    const seen = new Set<string>([rootId]);
    const walk = (id: string) => {
      for (const link of this.of(id)) {
        // A log naming an agent twice, or an ancestor, is not followed round again.
        if (seen.has(link.conversationId)) continue;
        seen.add(link.conversationId);
        out.push({ ...link, parentConversationId: id });
        walk(link.conversationId);
      }
    };
    walk(rootId);
    return out;
  }

  /** Whether `conversationId`'s children were read (or given up on). */
  has(conversationId: string): boolean {
    return this.byConversation.has(conversationId);
  }

  /** A log that could not be read: listed with no children, and not tried again. */
  none(conversationId: string): void {
    this.byConversation.set(conversationId, []);
  }

  forget(conversationId: string): void {
    this.byConversation.delete(conversationId);
  }
}
