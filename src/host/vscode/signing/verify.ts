// Logbook: Verify Conversation: the check `logbook verify` makes (core/signing), said in a message,
// with this window's key as "you" and the user's trust list (the CLI's file) naming known signers.
// As in the CLI, the verdict is the worst of the agent tree (core/agents/tree-verify.ts).
import * as vscode from 'vscode';
import { type AgentsVerification, delegated, treeVerdict } from '../../../core/agents/tree-verify';
import {
  type SignerTrust,
  type Verdict,
  type VerifyResult,
  signerName,
  verifyReport,
} from '../../../core/signing';
import { readTrustList, trustListPath } from '../../node/trust-list';

/** A verification as the editor keeps it: the result, and what it means for whom this window trusts. */
export interface SignatureCheck extends VerifyResult {
  verdict: Verdict;
  /** each signer as the badge's tooltip names it: "you", "Alice (did:key:…)", "did:key:… (unknown signer)" */
  signerNames: string[];
  /** what the user is told */
  message: string;
}

export interface VerifyOutcome {
  result: SignatureCheck;
  /** what the user was told */
  message: string;
}

/**
 * Whom this window trusts: its own key, and the signers on the trust list in the user's config
 * folder, shared with `logbook trust` (a setting could come from a workspace, which must not vouch
 * for a key). An unreadable list is reported and counts as empty.
 */
export function editorSignerTrust(did: string, warn: (msg: string) => void): SignerTrust {
  let known = new Map<string, string>();
  try {
    known = new Map(readTrustList(trustListPath(process.env)).map((s) => [s.did, s.name]));
  } catch (err) {
    warn(vscode.l10n.t('The trust list could not be read: {0}', (err as Error).message));
  }
  return { you: [did], known };
}

/**
 * The check of a conversation (`r`, its own log) and of its delegated agents' logs (`agents`): the
 * verdict is the worst of them, and the message names each agent whose log fails.
 */
export function signatureCheck(r: VerifyResult, agents: AgentsVerification): SignatureCheck {
  const { trust } = agents;
  const report = verifyReport(r, trust, vscode.l10n);
  const own = report.detail
    ? vscode.l10n.t('{0}. {1}', report.summary, report.detail)
    : vscode.l10n.t('{0}.', report.summary);
  const failing = delegated(agents)
    .filter((a) => a.verdict !== 'verified' && a.verdict !== 'unsigned')
    .map((a) =>
      vscode.l10n.t(
        'Delegated agent {0} ({1}, {2}) fails the check: {3}.',
        a.agent,
        a.branch,
        a.folder!,
        a.summary,
      ),
    );
  return {
    ...r,
    verdict: treeVerdict(report.verdict, agents),
    signerNames: r.signers.map((d) => signerName(d, trust, vscode.l10n)),
    message: [own, ...failing].join(' '),
  };
}

/** The message for a check, in the words of `logbook verify`. */
export function verifyMessage(c: SignatureCheck): string {
  return c.message;
}

/** What showing a check needs of the conversation service (named here so this file need not import it). */
export interface Verifier {
  verify(conversationId: string): Promise<SignatureCheck>;
}

export async function verifyAndShow(service: Verifier, id: string): Promise<VerifyOutcome> {
  const result = await service.verify(id);
  const message = verifyMessage(result);
  if (result.verdict === 'verified' || result.verdict === 'unsigned')
    void vscode.window.showInformationMessage(vscode.l10n.t('Logbook: {0}', message));
  else void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', message));
  return { result, message };
}
