// An agent that repeats itself is first nudged, then stopped as stuck (stuck-detector.ts).
import type { CreateFields } from '../../events';
import { detectStuck } from '../stuck-detector';
import type { ConversationPolicy } from './policy';

export const stuckPolicy: ConversationPolicy = {
  name: 'stuck',
  async beforeNextStep({ log, settings, recent }) {
    const verdict = detectStuck(recent, settings.stuck);
    if (verdict.kind === 'nudge') {
      await log.append('MessageEvent', {
        source: 'environment',
        llm_message: { role: 'user', content: [{ type: 'text', text: verdict.message }] },
      } as CreateFields<'MessageEvent'>);
    } else if (verdict.kind === 'stuck') {
      await log.append('ConversationStateUpdateEvent', {
        key: 'stuck',
        value: { pattern: verdict.pattern, explanation: verdict.explanation },
      });
      await log.setStatus('stuck');
      return 'stop';
    }
    return 'go';
  },
};
