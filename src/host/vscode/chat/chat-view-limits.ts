// What the host sends the webview, fitted to the protocol's limits: the webview refuses a message
// with an out-of-bounds field, so a long title or delta is cut here rather than the message lost.
import {
  type ConversationHeader,
  LIMITS,
  type StreamDelta,
  type ViewEvent,
} from '../../../protocol/messages';
import { clampChildren } from '../agents/child-events-sync';

/** The webview refuses out-of-bounds fields; fix them here rather than lose the whole header. */
export function clampHeader(h: ConversationHeader): ConversationHeader {
  const count = (n: number) =>
    Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER) : 0;
  return {
    id: h.id,
    title: h.title.slice(0, LIMITS.title),
    status: h.status.slice(0, LIMITS.status),
    promptTokens: count(h.promptTokens),
    completionTokens: count(h.completionTokens),
    cachedTokens: count(h.cachedTokens),
    reasoningTokens: count(h.reasoningTokens ?? 0),
    cost: Number.isFinite(h.cost) && h.cost > 0 ? Math.min(h.cost, 1e12) : 0,
    pendingActionIds: h.pendingActionIds
      .filter((id) => id.length > 0 && id.length <= LIMITS.id)
      .slice(0, LIMITS.actionIds),
    ...(h.pendingRisks && {
      pendingRisks: h.pendingRisks
        .filter((r) => r.actionId.length > 0 && r.actionId.length <= LIMITS.id)
        .slice(0, LIMITS.actionIds)
        .map((r) => ({ ...r, reason: r.reason.slice(0, LIMITS.riskReason) })),
    }),
    readOnly: h.readOnly,
    ...(h.heldBy && { heldBy: h.heldBy.slice(0, LIMITS.title) }),
    ...(h.readOnlyBecause && { readOnlyBecause: h.readOnlyBecause }),
    ...(h.task && {
      task: { name: h.task.name.slice(0, LIMITS.title), branch: h.task.branch.slice(0, LIMITS.title) },
    }),
    ...(h.signature && { signature: h.signature }),
    ...(h.model && {
      model: { name: h.model.name.slice(0, LIMITS.title), provider: h.model.provider },
    }),
    ...(h.mode === 'plan' || h.mode === 'act' ? { mode: h.mode } : {}),
    // The header's "Plan awaits approval" is this value, as the status bar's is: nothing to clamp.
    ...(h.planAwaitsApproval === true && { planAwaitsApproval: true }),
    ...(h.signers && {
      signers: h.signers.filter((d) => d.length <= LIMITS.id).slice(0, LIMITS.signers),
    }),
    ...(h.signerNames && {
      signerNames: h.signerNames.slice(0, LIMITS.signers).map((n) => n.slice(0, LIMITS.title)),
    }),
    ...(h.signatureNote && { signatureNote: h.signatureNote.slice(0, LIMITS.title) }),
    ...(h.children?.length && { children: clampChildren(h.children) }),
    ...(h.brokenAt && {
      brokenAt: {
        seq: count(h.brokenAt.seq),
        id: h.brokenAt.id && h.brokenAt.id.length <= LIMITS.id ? h.brokenAt.id : null,
        reason: h.brokenAt.reason.slice(0, LIMITS.status),
      },
    }),
  };
}

/** An event the protocol cannot carry (no usable kind or id) goes as an unreadable record, not dropped. */
export function unreadable(seq: number): ViewEvent['event'] {
  return {
    kind: 'CorruptRecord',
    id: `invalid-${seq}`,
    index: seq,
    reason: 'the event has no valid "kind" or "id"',
  };
}

/** A single delta longer than the protocol allows is cut (the real event replaces it anyway). */
export function splitDelta(delta: StreamDelta): StreamDelta {
  if (delta.type === 'text' || delta.type === 'reasoning')
    return { type: delta.type, text: delta.text.slice(0, LIMITS.streamText) };
  if (delta.type === 'tool_call')
    return {
      type: 'tool_call',
      index: Math.min(Math.max(0, Math.floor(delta.index)), 1_000),
      ...(delta.name !== undefined ? { name: delta.name.slice(0, LIMITS.kind) } : {}),
      argumentsDelta: delta.argumentsDelta.slice(0, LIMITS.streamText),
    };
  return delta;
}
