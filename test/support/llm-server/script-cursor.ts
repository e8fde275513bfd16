// Walks a scenario's turns in order, one request at a time. A request that does not match the next
// turn leaves the cursor where it is: the test has already failed, and the error should say where.
import { type ChatRequestView, messageText } from './chat-request';
import { type Reply, type Scenario, type Turn } from './scenario';
import { describeMismatches, quote } from './scenario-match';

export type ScriptStep =
  | { kind: 'turn'; turn: Turn; index: number }
  | { kind: 'fallback'; reply: Reply }
  | { kind: 'mismatch'; message: string }
  | { kind: 'exhausted'; message: string };

export class ScriptCursor {
  private index = 0;
  /** Requests already answered by the current turn (only above 0 for a turn with `repeat`). */
  private usesOfCurrent = 0;

  constructor(readonly scenario: Scenario) {}

  next(request: ChatRequestView): ScriptStep {
    const turn = this.scenario.turns[this.index];
    if (!turn) {
      if (this.scenario.fallback) return { kind: 'fallback', reply: this.scenario.fallback };
      return { kind: 'exhausted', message: this.exhaustedMessage(request) };
    }
    const problems = describeMismatches(turn.match, request);
    if (problems.length > 0) {
      const note = turn.note ? ` (${quote(turn.note)})` : '';
      return {
        kind: 'mismatch',
        message:
          `Scenario ${quote(this.scenario.name)}: the request does not match turn ${this.index}${note}: ` +
          problems.join('; '),
      };
    }
    const index = this.index;
    this.usesOfCurrent += 1;
    if (this.usesOfCurrent >= (turn.repeat ?? 1)) {
      this.index += 1;
      this.usesOfCurrent = 0;
    }
    return { kind: 'turn', turn, index };
  }

  /** Turns not yet fully used; a partly used repeating turn counts as one. */
  remainingTurns(): number {
    return Math.max(0, this.scenario.turns.length - this.index);
  }

  private exhaustedMessage(request: ChatRequestView): string {
    const last = request.messages.at(-1);
    const count = this.scenario.turns.length;
    return (
      `Scenario ${quote(this.scenario.name)} has no turn left: all ${count} turn${count === 1 ? ' was' : 's were'} ` +
      `used and there is no fallback. Unexpected request ending with a ${last?.role ?? 'missing'} message ` +
      quote(messageText(last?.content))
    );
  }
}
