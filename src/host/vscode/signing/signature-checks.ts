// What verifying each conversation's signatures last found in this window: checked on open (after
// the first paint) and by Logbook: Verify Conversation, shown as the list's and the header's badge.
import * as vscode from 'vscode';
import { verifyAgents } from '../../../core/agents/tree-verify';
import { verifyConversationInSteps } from '../../../core/signing';
import { type SignatureCheck, editorSignerTrust, signatureCheck } from './verify';

/** How long after opening a conversation its signatures are checked: its first paint goes first. */
const VERIFY_AFTER_OPEN_MS = 1_500;

interface Checked {
  readonly id: string;
  readonly dir: string;
  readonly length: number;
  flush(): Promise<void>;
}

export class SignatureChecks<S extends Checked> {
  private readonly checks = new Map<string, SignatureCheck>();

  constructor(
    private readonly deps: {
      /** Where a conversation's signed head is kept outside its folder. */
      headFile(id: string): string;
      /** This window's own signer. */
      signerDid(): Promise<string>;
      /** Whether `s` is still the open session of its conversation. */
      isCurrent(s: S): boolean;
      /** A result was recorded: the header and the list show it. */
      recorded(id: string, result: SignatureCheck): void;
      log: { warn(message: string): void };
    },
  ) {}

  get(id: string): SignatureCheck | undefined {
    return this.checks.get(id);
  }

  forget(id: string): void {
    this.checks.delete(id);
  }

  record(id: string, result: SignatureCheck): void {
    this.checks.set(id, result);
    this.deps.recorded(id, result);
  }

  /**
   * Verifies against the head kept outside, and judges the signers by this window's key and the
   * trust list; then each delegated agent's log, at any depth, as `logbook verify` does. The keys of
   * the agents a handoff gave the conversation to are vouched for by the log itself.
   */
  async check(id: string, dir: string): Promise<SignatureCheck> {
    const result = await verifyConversationInSteps(dir, { expectedId: id, headFile: this.deps.headFile(id) });
    const me = await this.deps.signerDid();
    const trust = editorSignerTrust(me, (m) => this.deps.log.warn(m));
    const agents = await verifyAgents(dir, result, trust, {
      verify: verifyConversationInSteps,
      // A delegated agent's head is kept by its conversation id, as its session wrote it.
      headFile: (_childDir, childId) => this.deps.headFile(childId),
      l10n: vscode.l10n,
    });
    return signatureCheck(result, agents);
  }

  /**
   * Verifies a conversation just opened, in slices that leave the window responsive (opening does
   * not wait for it). Events appended meanwhile are not in the chain it read: then it checks again.
   */
  afterOpen(s: S): void {
    const run = async (): Promise<void> => {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (!this.deps.isCurrent(s)) return;
        await s.flush();
        const before = s.length;
        const result = await this.check(s.id, s.dir);
        if (!this.deps.isCurrent(s)) return; // closed or deleted meanwhile
        // (events the writer had not signed yet when read show as appended: not a finding then)
        if (s.length !== before && (result.status !== 'broken' || result.firstBad?.reason === 'appended'))
          continue;
        this.record(s.id, result);
        return;
      }
    };
    setTimeout(() => {
      run().catch((err: unknown) =>
        this.deps.log.warn(`Could not verify conversation ${s.id}: ${String(err)}`),
      );
    }, VERIFY_AFTER_OPEN_MS);
  }
}
