// The parts of a conversation's chat header that come from outside its log: who holds it, what
// verifying its signatures found, and the model the next step will use.
import * as vscode from 'vscode';
import { activeDemo } from '../lm/demo-model';
import type { BadReason } from '../../../core/signing/verify';
import type { SignatureCheck } from '../signing/verify';
import { liveWriter } from '../../../core/log/lock';
import { LIMITS } from '../../../protocol/messages';
import { describeHolder } from '../handoff/lock-holder';
import type { ConversationHeader } from '../chat/chat-backend';
import { editorSetting, type LlmProvider, readEditorModel, readLlmProvider } from '../settings/config';

/** Who writes a conversation this window only reads, for the header (none once nobody does). */
export function heldBy(dir: string): Pick<ConversationHeader, 'heldBy'> {
  const writer = liveWriter(dir);
  return writer ? { heldBy: describeHolder(writer).slice(0, LIMITS.title) } : {};
}

/** Why the chat cannot write it, for the composer to say: its task is gone, or another window writes it. */
export function readOnlyBecause(
  taskGone: boolean,
  heldElsewhere: boolean,
): Pick<ConversationHeader, 'readOnlyBecause'> {
  if (taskGone) return { readOnlyBecause: 'task-discarded' };
  return heldElsewhere ? { readOnlyBecause: 'another-window' } : {};
}

/** The header's view of a verification: the badge, the signers, and where it broke. */
export function signatureFields(
  r: SignatureCheck,
): Pick<ConversationHeader, 'signature' | 'signers' | 'signerNames' | 'signatureNote' | 'brokenAt'> {
  const bad = r.status === 'broken' ? r.firstBad : null;
  return {
    signature: r.verdict,
    signers: r.signers.slice(0, 64),
    signerNames: r.signerNames.slice(0, 64),
    signatureNote: r.message.slice(0, 2_000),
    ...(bad ? { brokenAt: { seq: bad.index, id: bad.id, reason: brokenReason(bad.reason) } } : {}),
  };
}

/** Why an event is not as signed, in the editor's language (`logbook verify` says it in English). */
function brokenReason(reason: BadReason): string {
  const words: Record<BadReason, string> = {
    'content changed': vscode.l10n.t('content changed'),
    removed: vscode.l10n.t('removed'),
    inserted: vscode.l10n.t('inserted'),
    reordered: vscode.l10n.t('reordered'),
    'signature invalid': vscode.l10n.t('signature invalid'),
    unsigned: vscode.l10n.t('unsigned'),
    spliced: vscode.l10n.t('spliced'),
    rewritten: vscode.l10n.t('rewritten'),
    appended: vscode.l10n.t('appended'),
    corrupt: vscode.l10n.t('corrupt'),
  };
  return words[reason];
}

/** The model the next step will use, as the settings say (the header's model button). */
export function configuredModel(): { name: string; provider: LlmProvider } {
  const demo = activeDemo();
  if (demo) return { name: demo.model, provider: 'openai' };
  const provider = readLlmProvider();
  if (provider === 'vscode') return { name: readEditorModel() || 'editor model', provider };
  return { name: editorSetting<string>('model.name'), provider };
}
