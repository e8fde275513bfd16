// The chat panel: renders what the extension sends and nothing else. Holds no state the log lacks;
// after a reload it asks for every event after the last sequence number it saw.
import { render } from 'preact';
import { signal } from '@preact/signals';
import { parseHostMessage, type ConversationSummary, type ViewEvent } from '../../src/protocol/messages';
import { send } from './vscode-api';
import './styles.css';

const conversation = signal<ConversationSummary | null>(null);
const events = signal<ViewEvent[]>([]);

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const msg = parseHostMessage(e.data);
  if ('error' in msg) {
    console.warn('Logbook: dropped an invalid message from the extension', msg.error);
    return;
  }
  switch (msg.type) {
    case 'conversation':
      if (msg.conversation?.id !== conversation.value?.id) events.value = [];
      conversation.value = msg.conversation;
      break;
    case 'events': {
      if (msg.conversationId !== conversation.value?.id) break;
      const last = events.value.at(-1)?.seq ?? -1;
      const fresh = msg.events.filter((ev) => ev.seq > last);
      if (fresh.length) events.value = [...events.value, ...fresh];
      break;
    }
    case 'status':
      if (conversation.value?.id === msg.conversationId)
        conversation.value = { ...conversation.value, status: msg.status };
      break;
  }
});

function textOf(event: ViewEvent['event']): string {
  const message = event['llm_message'] as { content?: { type: string; text?: string }[] } | undefined;
  return (message?.content ?? []).map((c) => c.text ?? '').join('');
}

function EventRow({ item }: { item: ViewEvent }) {
  const ev = item.event;
  const source = String(ev['source'] ?? '');
  if (ev.kind === 'MessageEvent') {
    return (
      <div class={`event message ${source}`} data-kind={ev.kind} data-seq={item.seq}>
        <div class="who">{source === 'user' ? 'You' : 'Agent'}</div>
        <div class="body">{textOf(ev)}</div>
      </div>
    );
  }
  return (
    <div class="event line" data-kind={ev.kind} data-seq={item.seq}>
      {ev.kind}
    </div>
  );
}

function App() {
  const c = conversation.value;
  return (
    <main>
      <header>
        <span class="title">{c ? c.title : 'Logbook'}</span>
        {c && <span class="status">{c.status}</span>}
      </header>
      {c ? (
        <section class="stream" aria-label="Conversation events">
          {events.value.map((item) => (
            <EventRow key={item.seq} item={item} />
          ))}
        </section>
      ) : (
        <section class="empty">
          <p>Give the agent a task. Every step it takes is recorded as an event you can review and replay.</p>
          <button type="button" onClick={() => send({ type: 'startTask' })}>
            <span class="codicon codicon-play" /> Start Agent Task
          </button>
        </section>
      )}
    </main>
  );
}

render(<App />, document.getElementById('root')!);
send({ type: 'ready', conversationId: null, lastSeq: -1 });
