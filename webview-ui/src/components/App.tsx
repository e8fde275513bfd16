// The panel: header, the timeline and the replay card, the conversation (or the empty state), the
// approval bar and the composer.
import { useRef } from 'preact/hooks';
import { header } from '../state/store';
import { ApprovalBar } from './ApprovalBar';
import { Composer } from './Composer';
import { EmptyState } from './EmptyState';
import { EventList } from './EventList';
import { Header } from './Header';
import { ReplayCard } from './timeline/ReplayCard';
import { TimelineBar } from './timeline/TimelineBar';
import { TimelinePanel } from './timeline/TimelinePanel';

export function App({ surface }: { surface: string }) {
  const h = header.value;
  const input = useRef<HTMLTextAreaElement>(null);
  return (
    <div class="app">
      <Header header={h} surface={surface} />
      {h && <TimelineBar />}
      {h && <TimelinePanel />}
      {h && <ReplayCard />}
      <main class="main">{h ? <EventList /> : <EmptyState />}</main>
      <ApprovalBar focusComposer={() => input.current?.focus()} />
      <Composer readOnly={h?.readOnly ?? false} inputRef={input} />
    </div>
  );
}
