// An action the user (or a hook) rejected, with the reason given.
import type { EventJson } from '../../../src/protocol/messages';
import { str } from '../lib/fields';
import { Icon } from './Icon';

export function RejectedNote({ result }: { result: EventJson }) {
  const reason = str(result.rejection_reason)?.trim();
  const by = str(result.rejection_source) === 'hook' ? 'a hook' : 'you';
  return (
    <div class="result-note tone-warn">
      <Icon name="circle-slash" />
      <span>
        Rejected by {by}
        {reason ? `: ${reason.slice(0, 2_000)}` : ''}
      </span>
    </div>
  );
}
