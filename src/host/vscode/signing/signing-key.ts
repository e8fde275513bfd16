// The editor's signing identity: an Ed25519 private key (PKCS#8 PEM) kept in VS Code's secret
// storage, created the first time a conversation is opened for writing. It never goes to settings,
// events, logs or exports; only its did:key is shown. Conversations written here are signed with it
// the way the CLI signs with its key file (FORMAT.md, "Signatures").
import type * as vscode from 'vscode';
import { type SigningIdentity, identityFromPem, newSigningKeyPem } from '../../../core/signing';

export const SIGNING_KEY_SECRET = 'logbook.signingKey';

export class SecretSigningKey implements vscode.Disposable {
  private loading: Promise<SigningIdentity> | undefined;
  private readonly watch: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // Another window created or replaced the key: the next conversation opened signs with that one.
    this.watch = secrets.onDidChange((e) => {
      if (e.key === SIGNING_KEY_SECRET) this.loading = undefined;
    });
  }

  dispose(): void {
    this.watch.dispose();
  }

  /**
   * The identity, loaded once per window (again when the stored key changes); a stored key that is
   * not Ed25519 is an error, never replaced.
   */
  identity(): Promise<SigningIdentity> {
    this.loading ??= this.load().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async load(): Promise<SigningIdentity> {
    let pem = await this.secrets.get(SIGNING_KEY_SECRET);
    let created = false;
    if (!pem) {
      await this.secrets.store(SIGNING_KEY_SECRET, newSigningKeyPem());
      // Read back: when two windows create one at once, both go on with the one stored last.
      pem = await this.secrets.get(SIGNING_KEY_SECRET);
      created = true;
    }
    if (!pem) throw new Error('The signing key could not be kept in VS Code secret storage.');
    const identity = identityFromPem(pem, 'The signing key in VS Code secret storage');
    if (created) this.log.info(`Created the signing key (${identity.did}) in VS Code secret storage.`);
    return identity;
  }
}
