// The cap on tool calls per reply (logbook.maxToolCallsPerReply), see tool-call-cap.ts: the calls
// past it are answered with an error and never validated, confirmed or run.
import { effectiveCap, overCapError } from '../tool-call-cap';
import type { ConversationPolicy } from './policy';

export const callCapPolicy: ConversationPolicy = {
  name: 'call-cap',
  refuseCall({ index, total }, { settings }) {
    const cap = effectiveCap(settings.maxToolCallsPerReply);
    return index >= cap ? overCapError(total, cap) : null;
  },
};
