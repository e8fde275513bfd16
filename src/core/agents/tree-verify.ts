// Verifying a conversation's whole agent tree, for `logbook verify` and the editor's check alike.
// Each agent signs its own events: a conversation's log is signed by the user's key (the main
// agent) and, after a handoff, by the key of the agent that took over; a delegated agent's log in
// `agents/<id>/` by its own key. The did:key of each is recorded in an `agent_start` of the log that
// started it, and that record is trusted only when a trusted signer signed it. So a child's log
// signed by any other key, the parent's included, is broken: someone other than the agent wrote it.
// The tree's verdict is the worst of its logs. Each host says how it verifies one log (at once, or
// in slices that keep a window responsive) and where it keeps a log's head outside its folder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type SignerTrust, type Verdict, type VerifyResult, verifyReport, worstVerdict } from '../signing';
import { ENGLISH, type L10n } from '../text/l10n';
import { agentTree, type ChildLink } from './agent-tree';
import { indexedEvents, vouchedSigners } from './vouched-keys';

export interface AgentVerification {
  agent: string;
  branch: string;
  /** The child's folder (relative to the root's); null for an agent of the log itself (a handoff). */
  folder: string | null;
  /** The key the parent's log says it signs with. */
  did: string | null;
  verdict: Verdict;
  /** Events this agent signed (inclusive ranges, in its own log). */
  signed: { from: number; to: number }[];
  summary: string;
}

export interface AgentsVerification {
  /** The trust the conversation's own report is made with: the user's, plus the agents it vouched for. */
  trust: SignerTrust;
  agents: AgentVerification[];
}

/** What a host brings to verifying a tree. */
export interface TreeVerifier {
  /** Verifies one log against its head kept outside its folder. */
  verify(dir: string, opts: { expectedId: string; headFile: string }): VerifyResult | Promise<VerifyResult>;
  /** Where the host keeps the signed head of the log in `dir`, whose conversation id is `id`. */
  headFile(dir: string, id: string): string;
  /** The words of the summaries (English by default). */
  l10n?: L10n;
}

/** Verifies the agents a log names, at any depth; `r` is that log's own result. */
export async function verifyAgents(
  dir: string,
  r: VerifyResult,
  trust: SignerTrust,
  host: TreeVerifier,
): Promise<AgentsVerification> {
  const l10n = host.l10n ?? ENGLISH;
  const events = await indexedEvents(dir);
  const extended = vouchedSigners(events, r, trust);
  const tree = agentTree(events.map((e) => e.event));
  const agents: AgentVerification[] = [];
  for (const h of tree.handoffs) {
    const signed = h.did
      ? r.signedBy.filter((s) => s.did === h.did).map(({ from, to }) => ({ from, to }))
      : [];
    agents.push({
      agent: h.to,
      branch: '(handoff)',
      folder: null,
      did: h.did,
      verdict: r.status === 'broken' ? 'broken' : signed.length ? 'verified' : 'unsigned',
      signed,
      summary: signed.length
        ? l10n.t(
            'took over at event {0}; signed {1} with its own key {2}',
            h.index,
            rangesText(signed, l10n),
            h.did ?? '',
          )
        : l10n.t('took over at event {0}; signed nothing with its own key', h.index),
    });
  }
  for (const link of tree.children) agents.push(...(await verifyChild(dir, link, extended, host)));
  return { trust: extended, agents };
}

/** The tree's verdict: the log's own (which covers every event of a handoff in it) and each delegated agent's. */
export function treeVerdict(own: Verdict, v: AgentsVerification): Verdict {
  return worstVerdict([own, ...delegated(v).map((a) => a.verdict)]);
}

/** The delegated agents' verifications (not the handoffs, whose events the log's own check covers). */
export function delegated(v: AgentsVerification): AgentVerification[] {
  return v.agents.filter((a) => a.folder !== null);
}

/** A delegated agent's log, then the logs of the agents it delegated to, at any depth. */
async function verifyChild(
  parentDir: string,
  link: ChildLink,
  trust: SignerTrust,
  host: TreeVerifier,
): Promise<AgentVerification[]> {
  const l10n = host.l10n ?? ENGLISH;
  const dir = join(parentDir, link.folder);
  const base = { agent: link.agentName, branch: link.branch, folder: link.folder, did: link.did };
  if (!existsSync(join(dir, 'segments')))
    return [
      { ...base, verdict: 'broken', signed: [], summary: l10n.t('its log {0} is missing', link.folder) },
    ];
  const r = await host.verify(dir, {
    expectedId: link.conversationId,
    headFile: host.headFile(dir, link.conversationId),
  });
  const signed = r.signedBy.filter((s) => s.did === link.did).map(({ from, to }) => ({ from, to }));
  const others = r.signers.filter((d) => d !== link.did);
  if (others.length > 0) {
    return [
      {
        ...base,
        verdict: 'broken',
        signed,
        summary: l10n.t(
          "signed by {0}, not by its own key {1} that the parent's log records: its events were not written by this agent",
          others.join(', '),
          link.did ?? l10n.t('(none recorded)'),
        ),
      },
    ];
  }
  // Its own key is what the parent vouched for: trusted as far as the parent is.
  const own: SignerTrust = link.did
    ? { you: trust.you, known: new Map([...trust.known, [link.did, `agent ${link.branch}`]]) }
    : trust;
  const report = verifyReport(r, own, l10n);
  const self: AgentVerification = { ...base, verdict: report.verdict, signed, summary: report.summary };
  // Its own delegated agents (a broken log vouches for none of the keys it names).
  const below = delegated(await verifyAgents(dir, r, own, host)).map((a) => ({
    ...a,
    folder: join(link.folder, a.folder!),
  }));
  return [self, ...below];
}

function rangesText(ranges: readonly { from: number; to: number }[], l10n: L10n): string {
  return ranges
    .map((x) => (x.from === x.to ? l10n.t('event {0}', x.from) : l10n.t('events {0}–{1}', x.from, x.to)))
    .join(', ');
}

/** One line per agent, as `verify` prints them under the conversation's own summary. */
export function agentLines(v: AgentsVerification): string[] {
  return v.agents.map(
    (a) =>
      `  agent ${a.agent} ${a.folder ? `${a.branch} (${a.folder})` : a.branch}: ${a.verdict === 'verified' || a.verdict === 'unsigned' ? '' : `${a.verdict.toUpperCase()}: `}${a.summary}`,
  );
}
