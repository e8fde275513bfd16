// Logbook's answer to a click on a delegated agent in the Conversations view: the conversation that
// delegated the work is shown in the chat, and the agent's card (and each card above it, for a
// grandchild) is opened, scrolled to and focused there. The command takes its target as an object,
// so tests and other extensions need no tree.
import * as vscode from 'vscode';

export const REVEAL_DELEGATED_AGENT = 'logbook.revealDelegatedAgent';

/** The conversation shown, and the agents from its own child down to the one to show. */
export interface DelegatedAgentTarget {
  conversationId: string;
  childIds: string[];
}

/** Conversation ids as Logbook makes them (the chat's protocol refuses anything else). */
const ID = /^[\w-]{1,128}$/;

/** The command's argument, checked: anything else is refused with why. */
export function delegatedAgentTarget(arg: unknown): DelegatedAgentTarget {
  const o = arg as { conversationId?: unknown; childIds?: unknown } | null;
  const ids = Array.isArray(o?.childIds) ? o.childIds : [];
  if (
    typeof o?.conversationId !== 'string' ||
    !ID.test(o.conversationId) ||
    !ids.length ||
    !ids.every((id): id is string => typeof id === 'string' && ID.test(id))
  )
    throw new Error(
      vscode.l10n.t('Reveal Delegated Agent needs a conversation id and the agent ids down to it.'),
    );
  return { conversationId: o.conversationId, childIds: ids };
}

/** Where the chat is asked to show an agent: the service makes the conversation the active one first. */
export class ChildReveals implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<DelegatedAgentTarget>();
  readonly onDidRevealChild = this.emitter.event;

  request(target: DelegatedAgentTarget): void {
    this.emitter.fire(target);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
