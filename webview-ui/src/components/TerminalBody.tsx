// A terminal action: the command (highlighted as shell), then its output once the observation lands.
import { highlight } from '../lib/highlight';
import { str, type Json } from '../lib/fields';
import type { Row } from '../state/store';
import { ResultView } from './ResultView';
import { t } from '../lib/text';

export function TerminalBody({ action, row }: { action: Json; row: Row }) {
  const command = str(action.command) ?? '';
  const isInput = action.is_input === true;
  return (
    <div class="terminal">
      <pre class="code command" tabIndex={0}>
        <span class="prompt" aria-hidden="true">
          {isInput ? '›' : '$'}
        </span>
        <code
          dangerouslySetInnerHTML={{ __html: highlight(command || (isInput ? t('readOutput') : ''), 'sh') }}
        />
      </pre>
      {row.result && <ResultView result={row.result} row={row} />}
    </div>
  );
}
