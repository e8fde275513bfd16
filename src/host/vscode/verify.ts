// Logbook: Verify Conversation: the check `logbook verify` makes (core/signing), said in a message.
import * as vscode from 'vscode';
import type { VerifyResult } from '../../core/signing';
import type { ConversationService } from './conversation-service';

export interface VerifyOutcome {
  result: VerifyResult;
  /** what the user was told */
  message: string;
}

/** The message for a result, in the words of `logbook verify`. */
export function verifyMessage(r: VerifyResult): string {
  const n = r.events.toLocaleString('en-US');
  const by = r.signers.length > 0 ? `signed by ${r.signers.join(', ')}` : 'no signature';
  if (r.status === 'verified') return `${n} events verified, ${by}.`;
  const bad = r.firstBad!;
  const what = `event ${bad.index}${bad.id ? ` (${bad.id})` : ''}`;
  if (r.status === 'unsigned') {
    return r.signers.length === 0 && r.verified === 0
      ? `${n} events, unsigned: ${bad.detail}.`
      : `${n} events, unsigned from ${what}: ${bad.detail}; ${r.verified.toLocaleString('en-US')} verified, ${by}.`;
  }
  return `${n} events, broken at ${what}: ${bad.reason}. ${bad.detail}.`;
}

export async function verifyAndShow(service: ConversationService, id: string): Promise<VerifyOutcome> {
  const result = await service.verify(id);
  const message = verifyMessage(result);
  if (result.status === 'broken') void vscode.window.showErrorMessage(`Logbook: ${message}`);
  else void vscode.window.showInformationMessage(`Logbook: ${message}`);
  return { result, message };
}
