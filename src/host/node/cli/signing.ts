// The identity `run`, `approve`, `reject` and `resolve` sign with (see ../signing-key.ts).
import type { SigningIdentity } from '../../../core/signing';
import { loadOrCreateSigningKey, signingKeyPath } from '../signing-key';
import type { CliSettings } from './cli-settings';
import type { CliIo } from './io';

/** The key's file: the setting `signing.keyFile` (LOGBOOK_SIGNING_KEY), else the config folder's. */
export function cliSigningKeyPath(settings: CliSettings, env: CliIo['env']): string {
  return signingKeyPath(env, settings.get<string | null>('signing.keyFile'));
}

export function cliSigningIdentity(io: CliIo, settings: CliSettings): SigningIdentity {
  const file = cliSigningKeyPath(settings, io.env);
  const { identity, created } = loadOrCreateSigningKey(file);
  if (created) io.err(`Created the signing key ${file} (${identity.did}).`);
  return identity;
}
