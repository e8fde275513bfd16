// `logbook verify` for agents. Each agent signs its own events: a conversation's log is signed by
// the user's key (the main agent) and, after a handoff, by the key of the agent that took over; a
// delegated agent's log in `agents/<id>/` by its own key. The did:key of each is recorded in an
// `agent_start` of the log that started it, and that record is trusted only when a trusted signer
// signed it. So a child's log signed by any other key, the parent's included, is broken: someone
// other than the agent wrote it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentTree, type ChildLink } from '../../../core/agents/agent-tree';
import { indexedEvents, vouchedSigners } from '../../../core/agents/vouched-keys';
import {
  type SignerTrust,
  type Verdict,
  type VerifyResult,
  verifyConversation,
  verifyReport,
} from '../../../core/signing';
import { type Env, cliHeadFile } from '../config-dir';

export interface AgentVerification {
  agent: string;
  branch: string;
  /** The child's folder (relative to the parent's); null for an agent of the log itself (a handoff). */
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

/** Verifies the agents a verified (or unsigned) log names; `r` is that log's own result. */
export async function verifyAgents(
  dir: string,
  r: VerifyResult,
  trust: SignerTrust,
  env: Env,
): Promise<AgentsVerification> {
  const events = await indexedEvents(dir);
  const extended = vouchedSigners(events, r, trust);
  const agents: AgentVerification[] = [];
  for (const h of agentTree(events.map((e) => e.event)).handoffs) {
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
        ? `took over at event ${h.index}; signed ${rangesText(signed)} with its own key ${h.did}`
        : `took over at event ${h.index}; signed nothing with its own key`,
    });
  }
  for (const link of agentTree(events.map((e) => e.event)).children)
    agents.push(...(await verifyChild(dir, link, extended, env)));
  return { trust: extended, agents };
}

/** A delegated agent's log, then the logs of the agents it delegated to, at any depth. */
async function verifyChild(
  parentDir: string,
  link: ChildLink,
  trust: SignerTrust,
  env: Env,
): Promise<AgentVerification[]> {
  const dir = join(parentDir, link.folder);
  const base = { agent: link.agentName, branch: link.branch, folder: link.folder, did: link.did };
  if (!existsSync(join(dir, 'segments')))
    return [{ ...base, verdict: 'broken', signed: [], summary: `its log ${link.folder} is missing` }];
  const r = verifyConversation(dir, { expectedId: link.conversationId, headFile: cliHeadFile(env, dir) });
  const signed = r.signedBy.filter((s) => s.did === link.did).map(({ from, to }) => ({ from, to }));
  const others = r.signers.filter((d) => d !== link.did);
  if (others.length > 0) {
    return [
      {
        ...base,
        verdict: 'broken',
        signed,
        summary: `signed by ${others.join(', ')}, not by its own key ${link.did ?? '(none recorded)'} that the parent's log records: its events were not written by this agent`,
      },
    ];
  }
  // Its own key is what the parent vouched for: trusted as far as the parent is.
  const own: SignerTrust = link.did
    ? { you: trust.you, known: new Map([...trust.known, [link.did, `agent ${link.branch}`]]) }
    : trust;
  const report = verifyReport(r, own);
  const self: AgentVerification = { ...base, verdict: report.verdict, signed, summary: report.summary };
  // Its own delegated agents (a broken log vouches for none of the keys it names).
  const below = (await verifyAgents(dir, r, own, env)).agents
    .filter((a) => a.folder !== null)
    .map((a) => ({ ...a, folder: join(link.folder, a.folder!) }));
  return [self, ...below];
}

function rangesText(ranges: readonly { from: number; to: number }[]): string {
  return ranges.map((x) => (x.from === x.to ? `event ${x.from}` : `events ${x.from}–${x.to}`)).join(', ');
}

/** The lines `verify` prints under the conversation's own summary. */
export function agentLines(v: AgentsVerification): string[] {
  return v.agents.map(
    (a) =>
      `  agent ${a.agent} ${a.folder ? `${a.branch} (${a.folder})` : a.branch}: ${a.verdict === 'verified' || a.verdict === 'unsigned' ? '' : `${a.verdict.toUpperCase()}: `}${a.summary}`,
  );
}
