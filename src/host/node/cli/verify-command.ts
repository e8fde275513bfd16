// `logbook verify`: checks a conversation's records against its signed hash chain (core/signing),
// its length against the head the CLI keeps outside the folder, and its signers against the user's
// key and trust list.
import { detectBackend } from '../../../core/log';
import { agentLines, treeVerdict, verifyAgents } from '../../../core/agents/tree-verify';
import { verifyConversation, verifyReport } from '../../../core/signing';
import { cliHeadFile } from '../config-dir';
import { expectPositionals, parseCommandArgs } from './args';
import { assertConversationDir, conversationId, resolvePath } from './conversation-dir';
import { EXIT, VERIFY_EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { cliSignerTrust } from './verifier-trust';

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
  const trust = cliSignerTrust(io.env, values.signer);
  const r = verifyConversation(dir, { expectedId: conversationId(dir), headFile: cliHeadFile(io.env, dir) });
  // Each agent signs its own events: the keys the log vouches for, and each delegated agent's log.
  const agents = await verifyAgents(dir, r, trust, {
    verify: verifyConversation,
    headFile: (childDir) => cliHeadFile(io.env, childDir),
  });
  const report = verifyReport(r, agents.trust);
  // The worst of the tree: the log's own verdict and each delegated agent's log.
  const verdict = treeVerdict(report.verdict, agents);
  const code = {
    verified: VERIFY_EXIT.verified,
    broken: VERIFY_EXIT.broken,
    unsigned: VERIFY_EXIT.unsigned,
    truncated: VERIFY_EXIT.truncated,
    'unknown-signer': VERIFY_EXIT.unknownSigner,
  }[verdict];
  if (values.json) {
    const signers = r.signers.map((did) => ({
      did,
      standing: agents.trust.you.includes(did) ? 'you' : agents.trust.known.has(did) ? 'known' : 'unknown',
      ...(agents.trust.known.has(did) ? { name: agents.trust.known.get(did) } : {}),
    }));
    io.out(JSON.stringify({ ...r, verdict, signerStanding: signers, agents: agents.agents }));
    return code;
  }
  if (report.detail) io.err(report.detail);
  io.out(report.summary);
  for (const line of agentLines(agents)) io.out(line);
  return code;
}
