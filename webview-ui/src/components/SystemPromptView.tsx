// The system prompt and tool list the conversation started with, collapsed.
import { arr, obj, str } from '../lib/fields';
import type { Row } from '../state/store';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { t, tn } from '../lib/text';

export function SystemPromptView({ row }: { row: Row }) {
  const e = row.event;
  const text = str(obj(e.system_prompt)?.text) ?? '';
  const tools = arr(e.tools)
    .map((tool) => str(obj(obj(tool)?.function)?.name) ?? str(obj(tool)?.name))
    .filter((n): n is string => !!n);
  return (
    <div class="notice">
      <Icon name="settings" />
      <Collapsible
        id={`${row.key}:prompt`}
        row={row}
        label={tn(tools.length, 'systemPromptToolsOne', 'systemPromptToolsMany')}
      >
        {() => (
          <>
            {tools.length > 0 && <div class="note">{t('toolsList', tools.join(', ').slice(0, 1_000))}</div>}
            <pre class="code detail">{text.slice(0, 50_000)}</pre>
          </>
        )}
      </Collapsible>
    </div>
  );
}
