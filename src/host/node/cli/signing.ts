// The identity `run`, `approve`, `reject` and `resolve` sign with (see ../signing-key.ts).
import type { SigningIdentity } from '../../../core/signing';
import { loadOrCreateSigningKey, signingKeyPath } from '../signing-key';
import type { CliIo } from './io';

export function cliSigningIdentity(io: CliIo): SigningIdentity {
  const file = signingKeyPath(io.env);
  const { identity, created } = loadOrCreateSigningKey(file);
  if (created) io.err(`Created the signing key ${file} (${identity.did}).`);
  return identity;
}
