// Agent definitions written or changed while a conversation ran, in the editor (definition-trust.ts):
// the conversation's delegate and transfer_to_agent refuse them, and the user is told once per
// content, with the definition to read and a button that accepts it by name. Logbook: Accept an
// Agent Definition lists the held ones. The list is the CLI's too (held-definitions.ts).
import * as vscode from 'vscode';
import type { HeldDefinition } from '../../../core/agents/definition-trust';
import { ACTION_STARTED_KEY } from '../../../core/state';
import type { SequencedEvent } from '../chat/chat-backend';
import { DefinitionWatch, heldHere } from '../../node/agents/definition-watch';
import {
  type AcceptedDefinition,
  acceptHeldDefinition,
  fileFingerprint,
} from '../../node/agents/held-definitions';

export const ACCEPT_AGENT_DEFINITION_COMMAND = 'logbook.acceptAgentDefinition';

type Log = Pick<vscode.LogOutputChannel, 'info' | 'warn'>;

/** Each held content is told once per window. */
const told = new Set<string>();

/** The watch of one conversation's definitions: what it held is told, and refused by name. */
export function holdNewAgentDefinitions(
  cwd: string,
  log: Log,
): {
  held(name: string): HeldDefinition | null;
  /** After events were appended (the conversation's or a child's): an action started, or ended having written one. */
  afterEvents(events: readonly SequencedEvent[]): void;
} {
  const watch = new DefinitionWatch({ workspace: cwd, env: process.env, trusted: true });
  const tell = (list: readonly HeldDefinition[]) => {
    for (const h of list) tellHeld(h, log, watch.contentBefore(h.origin));
  };
  return {
    held: (name) => {
      const h = watch.held(name);
      if (h) tellHeld(h, log, watch.contentBefore(h.origin));
      return h;
    },
    afterEvents: (events) => {
      for (const { event: e } of events) {
        if (e.kind === 'ConversationStateUpdateEvent' && e.key === ACTION_STARTED_KEY) watch.refresh();
        if (e.kind === 'ObservationEvent' || e.kind === 'AgentErrorEvent') tell(watch.check());
      }
    },
  };
}

/** The held definitions of this workspace (and the user's). */
export function heldAgentDefinitions(cwd: string): HeldDefinition[] {
  return heldHere(process.env, cwd);
}

/**
 * Says a definition is held, with buttons to read it (the change, when this window saw what it held
 * before: `before`, null for a new file) and to accept it as it was told.
 */
export function tellHeld(h: HeldDefinition, log: Log, before?: string | null): void {
  const id = `${h.origin}\n${h.fingerprint}`;
  if (told.has(id)) return;
  told.add(id);
  log.warn(
    `Agent definition held: ${h.name} (${h.origin}) was written or changed while a conversation ran; not used until you accept it.`,
  );
  const show = before === undefined ? vscode.l10n.t('Show Definition') : vscode.l10n.t('Show Changes');
  const accept = vscode.l10n.t('Accept {0}', h.name);
  void vscode.window
    .showWarningMessage(
      vscode.l10n.t(
        'The agent definition {0} ({1}) was written or changed while a conversation ran. Logbook does not use it until you accept it.',
        h.name,
        vscode.workspace.asRelativePath(h.origin),
      ),
      show,
      accept,
    )
    .then(async (answer) => {
      if (answer === show) await showHeld(h, before);
      else if (answer === accept) await acceptAgentDefinition(log, h.name, h.fingerprint);
    });
}

/** The held file, or its change as a diff against what it held before the action (empty when new). */
async function showHeld(h: HeldDefinition, before: string | null | undefined): Promise<void> {
  const file = vscode.Uri.file(h.origin);
  if (before === undefined) {
    await vscode.window.showTextDocument(file);
    return;
  }
  const old = await vscode.workspace.openTextDocument({ content: before ?? '', language: 'markdown' });
  await vscode.commands.executeCommand(
    'vscode.diff',
    old.uri,
    file,
    vscode.l10n.t('{0}: before ↔ written while a conversation ran', h.name),
  );
}

/** Told of each definition the user accepts: the open conversations record it and use it; how many. */
type OnAccepted = (accepted: AcceptedDefinition) => Promise<number>;

let onAccepted: OnAccepted | undefined;

/** Where an accepted definition goes (the conversations of this window). */
export function whenDefinitionAccepted(handler: OnAccepted): void {
  onAccepted = handler;
}

/**
 * Accepts a held definition by name (asking which when none is given). `fingerprint` is the content
 * the user was told of (the notice's button): a file changed since is not accepted. Without one, the
 * definition is opened first and accepted only as it is shown, once the user says so. The open
 * conversations record the acceptance and may use the definition from their next step.
 */
export async function acceptAgentDefinition(
  log: Log,
  name?: unknown,
  fingerprint?: unknown,
): Promise<boolean> {
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const held = heldAgentDefinitions(cwd);
  let h: HeldDefinition | undefined;
  if (typeof name === 'string') {
    h = held.find((d) => d.name === name);
    if (!h) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Logbook holds no agent definition named {0} here.', name),
      );
      return false;
    }
  } else {
    if (held.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Logbook holds no agent definition here.'));
      return false;
    }
    const pick = await vscode.window.showQuickPick(
      held.map((d) => ({ label: d.name, description: vscode.workspace.asRelativePath(d.origin), d })),
      { placeHolder: vscode.l10n.t('Which agent definition should Logbook use? Read it first.') },
    );
    if (!pick) return false;
    h = pick.d;
  }
  let seen = typeof fingerprint === 'string' ? fingerprint : null;
  if (seen === null) {
    await vscode.window.showTextDocument(vscode.Uri.file(h.origin));
    seen = fileFingerprint(h.origin);
    const accept = vscode.l10n.t('Accept {0}', h.name);
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Use the agent definition {0} as it is shown?', h.name),
      { modal: true },
      accept,
    );
    if (answer !== accept || seen === null) return false;
  }
  try {
    const done = acceptHeldDefinition(process.env, h.origin, seen);
    log.info(`Accepted by the user: the agent definition ${h.name} (${h.origin}, ${done.fingerprint}).`);
    const using = (await onAccepted?.({ ...done, name: h.name })) ?? 0;
    void vscode.window.showInformationMessage(
      using > 0
        ? vscode.l10n.t(
            'Logbook uses the agent {0} from the next step of the open conversations, and in new ones.',
            h.name,
          )
        : vscode.l10n.t('Logbook uses the agent {0} in conversations opened from now on.', h.name),
    );
    return true;
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', (err as Error).message));
    return false;
  }
}
