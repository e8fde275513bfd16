// fast-check generators of whole event logs: every event kind the reducer handles, parallel batches,
// answers in any order (including orphans and duplicates), status updates valid or not, forks.
import fc from 'fast-check';
import type { ActionEvent, Event } from '../../../src/core/events';
import { EXECUTION_STATUSES } from '../../../src/core/state';
import { LogBuilder } from './builders';

type Op =
  | { t: 'user'; text: string; skill: number }
  | { t: 'agent'; final: boolean; rid: number | null }
  | { t: 'batch'; n: number; plan: boolean; finish: boolean }
  | { t: 'answer'; which: number; how: 'obs' | 'obsError' | 'reject' | 'error' | 'byCallId' }
  | { t: 'started'; which: number }
  | { t: 'approved'; which: number }
  | { t: 'status'; s: string }
  | { t: 'usage'; usage: number; prompt: number; cents: number; latency: number }
  | { t: 'stats'; prompt: number }
  | { t: 'pause' }
  | { t: 'convError' }
  | { t: 'condensation' }
  | { t: 'opaque' }
  | { t: 'policy'; v: number }
  | { t: 'failedCall' }
  | { t: 'fork'; to: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('user' as const), text: fc.string({ maxLength: 30 }), skill: fc.nat(3) }),
  fc.record({ t: fc.constant('agent' as const), final: fc.boolean(), rid: fc.option(fc.nat(5)) }),
  {
    arbitrary: fc.record({
      t: fc.constant('batch' as const),
      n: fc.integer({ min: 1, max: 3 }),
      plan: fc.boolean(),
      finish: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      t: fc.constant('answer' as const),
      which: fc.nat(),
      how: fc.constantFrom('obs', 'obsError', 'reject', 'error', 'byCallId'),
    }),
    weight: 4,
  },
  fc.record({ t: fc.constant('started' as const), which: fc.nat() }),
  fc.record({ t: fc.constant('approved' as const), which: fc.nat() }),
  fc.record({ t: fc.constant('status' as const), s: fc.constantFrom(...EXECUTION_STATUSES, 'bogus') }),
  fc.record({
    t: fc.constant('usage' as const),
    usage: fc.nat(2),
    prompt: fc.nat(5000),
    cents: fc.nat(100),
    latency: fc.nat(5000),
  }),
  fc.record({ t: fc.constant('stats' as const), prompt: fc.nat(100_000) }),
  fc.constant({ t: 'pause' as const }),
  fc.constant({ t: 'convError' as const }),
  fc.constant({ t: 'condensation' as const }),
  fc.constant({ t: 'opaque' as const }),
  fc.record({ t: fc.constant('policy' as const), v: fc.nat(2) }),
  fc.constant({ t: 'failedCall' as const }),
  fc.record({ t: fc.constant('fork' as const), to: fc.nat() }),
);

/** Turns ops into a log. `forks` false drops fork ops (a linear log). */
export function materialize(ops: readonly Op[], forks = true): Event[] {
  const b = new LogBuilder();
  const actions: ActionEvent[] = [];
  let rid = 0;
  for (const o of ops) {
    switch (o.t) {
      case 'user':
        b.user(o.text, o.skill === 0 ? [] : [`skill-${o.skill}`]);
        break;
      case 'agent':
        b.agent('reply', o.rid === null ? undefined : `agent-r${o.rid}`, !o.final);
        break;
      case 'batch': {
        rid++;
        for (let i = 0; i < o.n; i++) {
          const call = `call-${rid}-${i}`;
          if (o.plan && i === 0) actions.push(b.plan(call, `r${rid}`, [`task ${rid}`, 'next']));
          else if (o.finish && i === o.n - 1)
            actions.push(
              b.action(call, `r${rid}`, {
                tool: 'finish',
                payload: { kind: 'FinishAction', message: 'done' },
              }),
            );
          else actions.push(b.action(call, `r${rid}`));
        }
        break;
      }
      case 'answer': {
        const a = actions[o.which % Math.max(1, actions.length)];
        if (!a) break;
        if (o.how === 'obs') b.observe(a);
        else if (o.how === 'obsError') b.observe(a, { isError: true });
        else if (o.how === 'byCallId') b.observe(a, { byCallIdOnly: true });
        else if (o.how === 'reject') b.reject(a);
        else b.agentError(a.tool_call_id, { tool: a.tool_name });
        break;
      }
      case 'started': {
        const a = actions[o.which % Math.max(1, actions.length)];
        if (a) b.started(a);
        break;
      }
      case 'approved': {
        const a = actions[o.which % Math.max(1, actions.length)];
        if (a) b.update('approved_actions', { action_ids: [a.id] });
        break;
      }
      case 'status':
        b.status(o.s);
        break;
      case 'usage':
        b.usage(['agent', 'condenser', 'critic'][o.usage]!, {
          prompt_tokens: o.prompt,
          cost: o.cents / 100,
          latency_ms: o.latency,
        });
        break;
      case 'stats':
        b.update('stats', {
          usage_to_metrics: {
            default: {
              accumulated_cost: o.prompt / 1e6,
              accumulated_token_usage: { prompt_tokens: o.prompt },
            },
          },
        });
        break;
      case 'pause':
        b.pause();
        break;
      case 'convError':
        b.conversationError();
        break;
      case 'condensation':
        b.condensation();
        break;
      case 'opaque':
        b.opaque();
        break;
      case 'policy':
        b.update('confirmation_policy', { kind: ['AlwaysConfirm', 'NeverConfirm', 'ConfirmRisky'][o.v] });
        break;
      case 'failedCall':
        rid++;
        b.agentError(`bad-${rid}`, { responseId: `r${rid}` });
        break;
      case 'fork': {
        const target = b.events[o.to % Math.max(1, b.events.length)];
        if (forks && target) b.forkFrom(target.id);
        break;
      }
    }
  }
  return b.events;
}

export const ops = (maxLength = 60) => fc.array(op, { maxLength, size: 'max' });
export const linearLog = (maxLength = 60) => ops(maxLength).map((o) => materialize(o, false));
export const forkedLog = (maxLength = 60) => ops(maxLength).map((o) => materialize(o, true));
