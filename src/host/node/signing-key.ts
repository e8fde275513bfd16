// The CLI's signing key: an Ed25519 private key (PKCS#8 PEM) in a file only its owner can read,
// at $LOGBOOK_SIGNING_KEY, else $XDG_CONFIG_HOME/logbook/signing-key.pem (~/.config by default).
// Created the first time it is needed; a file that is not an Ed25519 private key is an error, so
// nothing is ever appended unsigned in its place. The agent's shell never sees LOGBOOK_* variables.
import fs from 'node:fs';
import path from 'node:path';
import { type SigningIdentity, SigningKeyError, identityFromPem, newSigningKeyPem } from '../../core/signing';
import { logbookConfigDir } from './config-dir';

/** `configured`: the file the settings name (the CLI's `signing.keyFile`); by default LOGBOOK_SIGNING_KEY. */
export function signingKeyPath(
  env: Readonly<Record<string, string | undefined>>,
  configured: string | null | undefined = env.LOGBOOK_SIGNING_KEY,
): string {
  if (configured) return path.resolve(configured);
  return path.join(logbookConfigDir(env), 'signing-key.pem');
}

/** The did:key of the key at `file`, without creating one; null when there is none or it is unusable. */
export function existingKeyDid(file: string): string | null {
  try {
    return identityFromPem(fs.readFileSync(file, 'utf8')).did;
  } catch {
    return null;
  }
}

/** Loads the key at `file`, creating it (mode 0600, folder 0700) when there is none. */
export function loadOrCreateSigningKey(file: string): { identity: SigningIdentity; created: boolean } {
  let created = false;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const pem = newSigningKeyPem();
    try {
      // O_EXCL: two processes starting at once end up with one key, the one written first.
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeFileSync(fd, pem);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const where = `The signing key ${file}`;
  const st = fs.statSync(file);
  if (!st.isFile()) throw new SigningKeyError(`${where} is not a file.`);
  if ((st.mode & 0o077) !== 0) {
    throw new SigningKeyError(
      `${where} can be read by other users (mode ${(st.mode & 0o777).toString(8)}); run chmod 600 on it.`,
    );
  }
  return { identity: identityFromPem(fs.readFileSync(file, 'utf8'), where), created };
}
