// The one way a reject reason is asked for (the approval bar, a delegated agent's waiting batch):
// the reason is optional, capped as the protocol caps it, and sent with exactly these actions.
import { LIMITS } from '../../../src/protocol/messages';
import { t } from '../lib/text';
import { send } from '../vscode-api';
import { InlineInput } from './InlineInput';

interface Props {
  conversationId: string;
  /** The batch the reason rejects (all of it: a batch is answered as one). */
  actionIds: string[];
  /** An example reason for where it is asked. */
  placeholder: string;
  /** After the rejection was sent. */
  onSent: () => void;
  onCancel: () => void;
}

export function RejectReasonInput(p: Props) {
  return (
    <InlineInput
      label={t('rejectReason')}
      placeholder={p.placeholder}
      submitLabel={t('reject')}
      submitIcon="close"
      maxLength={LIMITS.rejectReason}
      onSubmit={(reason) => {
        send({
          type: 'reject',
          conversationId: p.conversationId,
          actionIds: p.actionIds,
          reason: reason.trim(),
        });
        p.onSent();
      }}
      onCancel={p.onCancel}
    />
  );
}
