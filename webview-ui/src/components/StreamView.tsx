// The model's answer while it streams: its text as markdown, a short tail of its reasoning, and tool
// calls with their arguments as they are typed. Replaced by the real events when they arrive.
import type { LiveStream } from '../state/stream';
import { Icon } from './Icon';
import { Markdown } from './Markdown';
import { toolIcon } from '../lib/tool-icons';
import { t } from '../lib/text';

const tail = (s: string, n: number) => (s.length > n ? `…${s.slice(-n)}` : s);

export function StreamView({ stream }: { stream: LiveStream }) {
  return (
    <div class="event message agent streaming" aria-busy={!stream.ended}>
      <div class="who">
        <Icon name="sparkle" />
        <span>{t('agent')}</span>
        {!stream.ended && <Icon name="loading" spin class="running" />}
        <span class="status-text">{stream.ended ? t('streamFinishing') : t('streamAnswering')}</span>
      </div>
      {stream.reasoning && <div class="stream-reasoning muted">{tail(stream.reasoning, 400)}</div>}
      {stream.text && <Markdown class="body" text={stream.text} />}
      {stream.tools.map((tool) => (
        <div class="card action streaming-tool" key={tool.index}>
          <div class="card-head">
            <Icon name={toolIcon(tool.name)} class="tool-icon" />
            <span class="tool-name">{tool.name || t('toolFallback')}</span>
            <span class="summary">{t('streamPreparing')}</span>
          </div>
          <pre class="code">{tail(tool.args, 4_000)}</pre>
        </div>
      ))}
    </div>
  );
}
