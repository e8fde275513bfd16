// The last step of the session factory (agent-session.ts), for both hosts: the gate that judges
// every action, the sandbox notice and the conversation's dependencies are assembled here from the
// store, ports and tools, so a rule of confirmation or a new dependency is added once.
import { Conversation } from '../../../core/agent/conversation';
import type { ConversationDeps } from '../../../core/agent/conversation-deps';
import { PolicyGate } from '../../../core/agent/policy-gate';
import type { ConfirmationMode } from '../../../core/agent/settings';
import type { NamedSecret } from '../../../core/secrets';
import type { HiddenPaths } from '../../../core/security/hidden-paths';
import { type CommandSandbox, sandboxNotice } from '../sandbox';

export interface ConversationParts extends Omit<ConversationDeps, 'gate' | 'sandbox' | 'secrets'> {
  /** The confirmation mode and allow rules in effect, read at each decision (a setting may change). */
  confirmation: () => { mode: ConfirmationMode; allowRules?: readonly string[] };
  /** The workspace folders, read at each decision, for judging what commands and edits touch. */
  roots: () => readonly string[];
  /** Folders besides the workspace the agent may write (`logbook.sandbox.writable`); none: only the workspace. */
  writable?: () => readonly string[];
  /** What the sandbox hides from commands, which the file tools refuse (rated so, never asked). */
  hidden?: () => readonly string[];
  /** The host's look at hard links to hidden files (refused like the hidden places themselves). */
  hiddenLinks?: HiddenPaths['links'];
  /** Folders besides the workspace the agent may read freely (where full command output is kept). */
  readableRoots: () => readonly string[];
  /** Where the agent's shell is now: a command's relative paths are judged from there. */
  shellCwd: () => string | undefined;
  /** Secrets the host knows (the API key, MCP servers' values): redacted from every event. */
  secrets: () => readonly NamedSecret[];
  /** The sandbox the agent's commands run in; none: unsandboxed. */
  sandbox?: CommandSandbox;
}

export interface AssembledConversation {
  conversation: Conversation;
  /** The gate the conversation asks (a host shows its ratings of the pending actions). */
  gate: PolicyGate;
}

export async function assembleConversation(parts: ConversationParts): Promise<AssembledConversation> {
  const { confirmation, roots, writable, hidden, hiddenLinks, readableRoots, shellCwd, sandbox, ...deps } =
    parts;
  const { tools, toolSource } = parts;
  // The gate rates each action by the model's rating and the rule-based checks together.
  const gate = new PolicyGate(
    () => (toolSource ? [...tools, ...toolSource.tools()] : tools),
    () => {
      const { mode, allowRules } = confirmation();
      return {
        mode,
        allowRules: allowRules ?? [],
        roots: roots(),
        writable: writable?.() ?? [],
        ...(hidden ? { hidden: hidden() } : {}),
        ...(hiddenLinks ? { hiddenLinks } : {}),
        ...(sandbox ? { commandsSandboxed: sandbox.active } : {}),
      };
    },
    readableRoots,
    shellCwd,
  );
  const conversation = await Conversation.open({
    ...deps,
    gate,
    ...(sandbox ? { sandbox: () => sandboxNotice(sandbox.state) } : {}),
  });
  return { conversation, gate };
}
