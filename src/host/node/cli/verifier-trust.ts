// Whom `logbook verify` trusts: the CLI's own key ("you") and the user's trust list, or only the
// did:keys given with --signer.
import type { SignerTrust } from '../../../core/signing';
import { existingKeyDid } from '../signing-key';
import { cliSettings } from './cli-settings';
import { cliSigningKeyPath } from './signing';
import { readTrustList, trustListPath } from '../trust-list';
import type { Env } from '../config-dir';

export function cliSignerTrust(env: Env, only?: readonly string[]): SignerTrust {
  const listed = readTrustList(trustListPath(env));
  const mine = existingKeyDid(cliSigningKeyPath(cliSettings('verify', env), env));
  const you = mine ? [mine] : [];
  if (!only) return { you, known: new Map(listed.map((s) => [s.did, s.name])) };
  const names = new Map(listed.map((s) => [s.did, s.name]));
  return {
    you: you.filter((d) => only.includes(d)),
    known: new Map(only.filter((d) => !you.includes(d)).map((d) => [d, names.get(d) ?? '--signer'])),
  };
}
