// `logbook trust`: the signers the user knows, by name (trust-list.ts), so `verify` can tell a
// colleague's key from a key made to re-sign a rewritten log.
import { distrustSigner, readTrustList, trustListPath, trustSigner } from '../trust-list';
import { existingKeyDid } from '../signing-key';
import { ioSettings } from './cli-settings';
import { cliSigningKeyPath } from './signing';
import { parseCommandArgs } from './args';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';

export async function trustCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('trust', argv, { name: { type: 'string' } });
  if (values.help) {
    io.out(COMMAND_HELP.trust);
    return EXIT.ok;
  }
  const file = trustListPath(io.env);
  const [action, did, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`logbook trust: unexpected argument "${extra[0]}".`);
  if (action === 'add') {
    if (!did) throw new UsageError("logbook trust add: give the signer's did:key.");
    const name = values.name?.trim();
    if (!name) throw new UsageError('logbook trust add: --name NAME is required (verify says it).');
    const done = trustSigner(file, did, name);
    io.out(`${done === 'added' ? 'Trusted' : 'Renamed'} ${did} as ${name} (${file}).`);
    return EXIT.ok;
  }
  if (action === 'remove') {
    if (!did) throw new UsageError("logbook trust remove: give the signer's did:key.");
    if (!distrustSigner(file, did)) throw new Error(`${did} is not on the trust list (${file}).`);
    io.out(`No longer trusted: ${did}.`);
    return EXIT.ok;
  }
  if (action === 'list' || action === undefined) {
    if (did !== undefined) throw new UsageError(`logbook trust list: unexpected argument "${did}".`);
    const mine = existingKeyDid(cliSigningKeyPath(ioSettings('trust', io), io.env));
    io.out(`you  ${mine ?? '(no signing key yet: the first run creates one)'}`);
    for (const s of readTrustList(file)) io.out(`${s.name}  ${s.did}`);
    return EXIT.ok;
  }
  throw new UsageError(`logbook trust: unknown action "${action}" (add, remove or list).`);
}
