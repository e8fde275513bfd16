// Logbook: Verify Conversation: the check `logbook verify` makes (core/signing), said in a message.
import * as vscode from 'vscode';
import { type VerifyResult, unsignedText, verifiedText } from '../../core/signing';
import type { ConversationService } from './conversation-service';

export interface VerifyOutcome {
  result: VerifyResult;
  /** what the user was told */
  message: string;
}

/** The message for a result, in the words of `logbook verify`. */
export function verifyMessage(r: VerifyResult): string {
  if (r.status === 'verified') return `${verifiedText(r)}.`;
  if (r.status === 'unsigned') return `${unsignedText(r)}.`;
  const bad = r.firstBad!;
  const what = `event ${bad.index}${bad.id ? ` (${bad.id})` : ''}`;
  return `${r.events.toLocaleString('en-US')} events, broken at ${what}: ${bad.reason}. ${bad.detail}.`;
}

export async function verifyAndShow(service: ConversationService, id: string): Promise<VerifyOutcome> {
  const result = await service.verify(id);
  const message = verifyMessage(result);
  if (result.status === 'broken') void vscode.window.showErrorMessage(`Logbook: ${message}`);
  else void vscode.window.showInformationMessage(`Logbook: ${message}`);
  return { result, message };
}
