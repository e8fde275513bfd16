// The delegation tree of an open conversation in the editor, to any depth: each conversation's
// children as its own log names them (agent_start/agent_end), read once when it is followed and then
// kept up to date from each start or end it records. The chat's cards list every agent of the tree,
// each under the delegation that started it, so a grandchild's question reaches the user too.
import { agentTree, ChildLinks, type ChildLink } from '../../../core/agents/agent-tree';
import type { Conversation } from '../../../core/agent/conversation';
import { openReadOnly, readEvents } from '../../node/cli/conversation-dir';

/** A delegated agent of the tree, with the conversation that delegated to it. */
export interface TreeLink extends ChildLink {
  parentConversationId: string;
}

export class AgentLinks {
  private readonly byConversation = new Map<string, ChildLink[]>();

  /** Reads `conversation`'s children from its log, then follows the starts and ends it records. */
  async follow(conversationId: string, conversation: Conversation, changed: () => void): Promise<void> {
    const links = new ChildLinks();
    // Subscribed before the log is read: an event recorded meanwhile is in both, and adding it
    // twice changes nothing.
    conversation.onEvent((e) => {
      if (!ChildLinks.concerns(e)) return;
      links.add(e);
      this.byConversation.set(conversationId, links.list());
      queueMicrotask(changed);
    });
    // A log that names no other agent is not read (a long conversation opens without reading it).
    if (conversation.state.agentEvents !== 0) {
      for (const e of await conversation.events()) if (ChildLinks.concerns(e)) links.add(e);
    }
    this.byConversation.set(conversationId, links.list());
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
