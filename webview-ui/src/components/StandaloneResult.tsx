// A result whose action is not in view (e.g. the log was cut before it): shown on its own.
import { str } from '../lib/fields';
import type { Row } from '../state/store';
import { toolIcon } from '../lib/tool-icons';
import { Icon } from './Icon';
import { ResultView } from './ResultView';
import { t } from '../lib/text';

export function StandaloneResult({ row }: { row: Row }) {
  const tool = str(row.event.tool_name) ?? t('toolFallback');
  return (
    <div class="card result">
      <div class="card-head">
        <Icon name={toolIcon(tool)} class="tool-icon" />
        <span class="tool-name">{tool}</span>
        <span class="summary">{t('resultWord')}</span>
      </div>
      <ResultView result={row.event} row={row} />
    </div>
  );
}
