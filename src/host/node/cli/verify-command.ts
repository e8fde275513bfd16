// `logbook verify`: checks a conversation's records against its signed hash chain (core/signing).
import { detectBackend } from '../../../core/log';
import { unsignedText, verifiedText, verifyConversation } from '../../../core/signing';
import { expectPositionals, parseCommandArgs } from './args';
import { assertConversationDir, resolvePath } from './conversation-dir';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';

/** Intact, but some events were never signed when written. */
const EXIT_UNSIGNED = 3;

export async function verifyCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('verify', argv, {
    json: { type: 'boolean' },
    signer: { type: 'string', multiple: true },
  });
  if (values.help) {
    io.out(COMMAND_HELP.verify);
    return EXIT.ok;
  }
  const [dirArg] = expectPositionals('verify', positionals, ['CONV_DIR']);
  const dir = resolvePath(io, dirArg!);
  assertConversationDir(dir);
  if (detectBackend(dir) === 'openhands') {
    throw new Error(`${dir} is an OpenHands conversation: it carries no signatures (import it first).`);
  }
  const r = verifyConversation(dir, values.signer ? { trusted: values.signer } : {});
  const code = r.status === 'verified' ? EXIT.ok : r.status === 'unsigned' ? EXIT_UNSIGNED : EXIT.failure;
  if (values.json) {
    io.out(JSON.stringify(r));
    return code;
  }
  const n = r.events.toLocaleString('en-US');
  if (r.status === 'verified') {
    io.out(verifiedText(r));
    return code;
  }
  if (r.status === 'unsigned') {
    io.out(unsignedText(r));
    return code;
  }
  const bad = r.firstBad!;
  const what = `event ${bad.index}${bad.id ? ` (${bad.id})` : ''}`;
  io.err(`${what}: ${bad.reason}. ${bad.detail}.`);
  io.out(`${n} events, broken at ${what}: ${bad.reason}`);
  return code;
}
