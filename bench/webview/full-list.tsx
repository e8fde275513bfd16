// Benchmark baseline: the panel's own rows, with the virtualized EventList swapped for this one, which
// renders every row. Same components, markdown, diffs and CSS; only virtualization is missing.
// Built by scripts/bench-webview.mjs (esbuild replaces components/EventList with this file).
import { EventRow } from '../../webview-ui/src/components/EventRow';
import { lastSeqHeld, rows, version } from '../../webview-ui/src/state/store';

export function EventList() {
  void version.value;
  return (
    <div class="feed-wrap">
      <div class="feed" role="feed" aria-label="Conversation" tabIndex={0} data-last-seq={lastSeqHeld()}>
        {rows.map((row, i) => (
          <div class="vrow" key={row.key}>
            <EventRow row={row} rev={row.rev} position={i + 1} total={rows.length} />
          </div>
        ))}
      </div>
    </div>
  );
}
