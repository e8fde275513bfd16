// A tool of an MCP server: its arguments as JSON (open when short, folded when long), then its
// result, images included.
import { obj, type Json } from '../lib/fields';
import type { Row } from '../state/store';
import { Collapsible } from './Collapsible';
import { ResultView } from './ResultView';
import { t } from '../lib/text';

/** Arguments this many lines long or shorter start open. */
const OPEN_LINES = 8;

export function McpToolBody({ action, row }: { action: Json; row: Row }) {
  const args = obj(action.data) ?? {};
  const count = Object.keys(args).length;
  const json = JSON.stringify(args, null, 2) ?? '{}';
  return (
    <div class="generic-tool mcp-tool">
      {count === 0 ? (
        <div class="note">{t('noArguments')}</div>
      ) : (
        <Collapsible
          id={`${row.event.id}:args`}
          row={row}
          class="mcp-args"
          label={t('argumentsCount', count)}
          defaultOpen={json.split('\n').length <= OPEN_LINES}
        >
          {() => (
            <pre class="code" tabIndex={0}>
              {json.slice(0, 20_000)}
            </pre>
          )}
        </Collapsible>
      )}
      {row.result && <ResultView result={row.result} row={row} />}
    </div>
  );
}
