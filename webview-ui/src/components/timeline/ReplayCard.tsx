// What "Logbook: Replay Conversation" found, as a card above the feed: running, replayed the same,
// or the first divergence (the action, both results, the lines that differ) with a way to see the
// conversation at that event in the timeline.
import type { ReplayReport } from '../../../../src/protocol/messages';
import { replayCard, seekTo } from '../../state/timeline';
import { Icon } from '../Icon';
import { IconButton } from '../IconButton';
import { count, t, tn } from '../../lib/text';

function Diverged({ r }: { r: Extract<ReplayReport, { outcome: 'diverged' }> }) {
  return (
    <>
      <p class="replay-line">
        {r.branch !== undefined && (
          <>
            {t('replayInDelegatedAgent')} <code class="replay-branch">{r.branch}</code>{' '}
            {t('replayEventOfItsLog', count(r.index))}{' '}
          </>
        )}
        {t('replayActionGaveOther', count(r.ordinal), count(r.actions))} <strong>{r.tool}</strong>{' '}
        <code class="replay-what">{r.what}</code>
      </p>
      <div class="replay-results">
        <span class="replay-label">{t('replayRecorded')}</span>
        <pre class="replay-text">{r.recorded}</pre>
        <span class="replay-label">{t('replayReplayed')}</span>
        {r.replayed === undefined ? (
          <p class="replay-line">{t('replayNoResult', r.status.replace(/_/g, ' '))}</p>
        ) : (
          <pre class="replay-text">{r.replayed}</pre>
        )}
      </div>
      {r.diff.length > 0 && (
        <pre class="replay-diff" aria-label={t('replayDiffLines')}>
          {r.diff.map((l, i) => (
            <span key={i} class={l.startsWith('+') ? 'replay-add' : 'replay-del'}>
              {l}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
      {r.seq !== undefined && (
        <button type="button" class="link-button" onClick={() => seekTo(r.seq!)}>
          <Icon name="history" />
          {t('replayShowEvent', count(r.seq + 1))}
        </button>
      )}
    </>
  );
}

function body(r: ReplayReport | null) {
  if (r === null) return { icon: 'loading', title: t('replaying'), tone: 'busy' };
  switch (r.outcome) {
    case 'same':
      return {
        icon: 'pass',
        title: tn(r.actions, 'replayedSameOne', 'replayedSameMany'),
        tone: 'ok',
      };
    case 'diverged':
      return { icon: 'warning', title: t('replayDiverged'), tone: 'warn' };
    case 'error-end':
      return {
        icon: 'warning',
        title: t('replayErrorEnd', r.recordedEnd.replace(/_/g, ' ')),
        tone: 'warn',
      };
    case 'failed':
      return { icon: 'error', title: t('replayFailed', r.message), tone: 'error' };
  }
}

export function ReplayCard() {
  const card = replayCard.value;
  if (!card) return null;
  const r = card.report;
  const b = body(r);
  return (
    <section class={`replay-card tone-${b.tone}`} aria-label={t('replay')} aria-live="polite">
      <div class="replay-head">
        <Icon name={b.icon} spin={b.icon === 'loading'} />
        <span class="replay-title">{b.title}</span>
        {r !== null && (
          <IconButton icon="close" label={t('closeReplay')} onClick={() => (replayCard.value = null)} />
        )}
      </div>
      {r?.outcome === 'diverged' && <Diverged r={r} />}
    </section>
  );
}
