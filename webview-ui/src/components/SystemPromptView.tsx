// The system prompt and tool list the conversation started with, collapsed.
import { arr, obj, str } from '../lib/fields';
import { plural } from '../lib/format';
import type { Row } from '../state/store';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';

export function SystemPromptView({ row }: { row: Row }) {
  const e = row.event;
  const text = str(obj(e.system_prompt)?.text) ?? '';
  const tools = arr(e.tools)
    .map((t) => str(obj(obj(t)?.function)?.name) ?? str(obj(t)?.name))
    .filter((n): n is string => !!n);
  return (
    <div class="notice">
      <Icon name="settings" />
      <Collapsible
        id={`${row.key}:prompt`}
        row={row}
        label={`System prompt · ${plural(tools.length, 'tool')}`}
      >
        {() => (
          <>
            {tools.length > 0 && <div class="note">Tools: {tools.join(', ').slice(0, 1_000)}</div>}
            <pre class="code detail">{text.slice(0, 50_000)}</pre>
          </>
        )}
      </Collapsible>
    </div>
  );
}
