// `logbook import-openhands`: an OpenHands conversation into a new segment log, from an SDK
// conversation folder or a V0 trajectory file (see core/agent/import-openhands).
import { cliHeadFile } from '../config-dir';
import { importOpenHands } from '../../../core/agent/import-openhands';
import { expectPositionals, parseCommandArgs } from './args';
import { assertFreshDir, resolvePath } from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import { cliSigningIdentity } from './signing';
import { ioSettings } from './cli-settings';
import type { CliIo } from './io';

export async function importCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('import-openhands', argv, { store: { type: 'string' } });
  if (values.help) {
    io.out(COMMAND_HELP['import-openhands']);
    return EXIT.ok;
  }
  const [dirArg] = expectPositionals('import-openhands', positionals, ['DIR']);
  if (!values.store) throw new UsageError('logbook import-openhands: --store STORE is required.');
  const from = resolvePath(io, dirArg!);
  const to = resolvePath(io, values.store);
  assertFreshDir(to, 'The store');
  const { count, format, signedEventsKept } = await importOpenHands(from, to, {
    identity: cliSigningIdentity(io, ioSettings('import-openhands', io)),
    headFile: cliHeadFile(io.env, to),
  });
  const what = format === 'openhands-v0' ? ' from an OpenHands V0 trajectory' : '';
  const signed =
    signedEventsKept > 0 && signedEventsKept === count
      ? 'their signatures kept, the import signed'
      : signedEventsKept > 0
        ? `the signatures of the first ${signedEventsKept} kept, the other ${count - signedEventsKept} unsigned as imported, the import signed`
        : 'unsigned as imported, signed from the import on';
  io.out(`Imported ${count} event${count === 1 ? '' : 's'}${what} into ${to} (${signed})`);
  return EXIT.ok;
}
