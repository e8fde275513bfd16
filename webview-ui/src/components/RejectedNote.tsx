// An action the user (or a hook) rejected, with the reason given.
import type { EventJson } from '../../../src/protocol/messages';
import { str } from '../lib/fields';
import { Icon } from './Icon';
import { t } from '../lib/text';

export function RejectedNote({ result }: { result: EventJson }) {
  const reason = str(result.rejection_reason)?.trim();
  const hook = str(result.rejection_source) === 'hook';
  const text = reason
    ? t(hook ? 'rejectedByHookReason' : 'rejectedByYouReason', reason.slice(0, 2_000))
    : t(hook ? 'rejectedByHook' : 'rejectedByYou');
  return (
    <div class="result-note tone-warn">
      <Icon name="circle-slash" />
      <span>{text}</span>
    </div>
  );
}
