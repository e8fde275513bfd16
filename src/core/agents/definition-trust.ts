// Agent definitions written while a conversation ran are not used until the user accepts them. A
// definition grants instructions, tools and a mode; one the agent wrote itself (a file edit, a
// command) must not widen what the next delegation, handoff or conversation may do. Each file is
// known by a fingerprint of its content: what a session saw when it started counts as the user's
// (it was there before the agent acted), and a file that appears or changes after that is held
// (kept outside the workspace by the host) until the user accepts that very content by name.
import crypto from 'node:crypto';

/** The content's fingerprint: what an acceptance names, so any other content is asked about again. */
export function definitionFingerprint(text: string): string {
  return `sha256:${crypto.createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** A definition file that appeared or changed while a conversation ran and is not accepted yet. */
export interface HeldDefinition {
  /** The agent's name as the file gives it (or the file's name when it does not parse). */
  name: string;
  /** The file. */
  origin: string;
  /** Its content's fingerprint when it was last seen. */
  fingerprint: string;
}

/**
 * The state update a conversation records when the user accepted a held definition as it opened
 * (the CLI's question): its value is the HeldDefinition accepted, with the content's fingerprint.
 */
export const DEFINITION_ACCEPTED_KEY = 'agent_definition_accepted';

/** What delegate and transfer_to_agent answer for an agent whose definition is held. */
export function notAcceptedMessage(held: HeldDefinition): string {
  return (
    `Refused: the user has not accepted this definition yet. The agent "${held.name}" (${held.origin}) ` +
    'was written or changed while a conversation ran, so it is not used until the user reads and accepts it ' +
    `(in the chat, or \`logbook agents accept ${held.name}\`). Do the work with the agents and tools you have.`
  );
}

/** The line a listing of agents shows for a held definition. */
export function heldLine(held: HeldDefinition): string {
  return `${held.name}: not used until you accept it (written or changed while a conversation ran): ${held.origin}`;
}
