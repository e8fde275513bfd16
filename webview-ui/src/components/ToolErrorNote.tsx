// A tool call that failed before or while running (AgentErrorEvent).
import type { EventJson } from '../../../src/protocol/messages';
import { str } from '../lib/fields';
import { Icon } from './Icon';
import { OutputBlock } from './OutputBlock';
import type { Row } from '../state/store';
import { t } from '../lib/text';

export function ToolErrorNote({ result, row }: { result: EventJson; row?: Row }) {
  return (
    <div class="result-error">
      <div class="result-note tone-error">
        <Icon name="error" />
        <span>{t('toolCallFailed')}</span>
      </div>
      <OutputBlock
        text={str(result.error) ?? ''}
        id={`${result.id}:error`}
        row={row}
        tone="error"
        label={t('errorLabel')}
      />
    </div>
  );
}
