// Small one-line events: status changes, pauses, condensation requests, conversation errors (stuck
// explanations among them), unreadable records and kinds this version does not know.
import type { EventJson } from '../../../src/protocol/messages';
import { num, str } from '../lib/fields';
import { statusLook } from '../lib/format';
import { isLlmFailure, retryNoticeText } from '../lib/llm-failure';
import { latestStatusEvent, restoreMeaning, type Row } from '../state/store';
import { Collapsible } from './Collapsible';
import { hookRunLine } from './hook-notice';
import { Icon } from './Icon';
import { LlmErrorCard } from './LlmErrorCard';
import { isSandboxWarning, SandboxWarning } from './SandboxWarning';
import { t } from '../lib/text';
import type { WebviewTextKey } from '../../../src/protocol/webview-text';
import { levelWord } from './RiskBadge';

interface Line {
  icon: string;
  text: string;
  tone: 'neutral' | 'warn' | 'error';
  detail?: string;
  /** The detail starts folded even when short (a retry's error repeats what the line says). */
  folded?: boolean;
  /** A state the conversation has left (an earlier status). */
  past?: boolean;
}

function shortValue(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

/** The first few tools' names, as the log gives them. */
function firstNames(named: { name: string }[]): string {
  return named
    .slice(0, 6)
    .map((n) => n.name)
    .join(', ');
}

function describe(e: EventJson): Line {
  switch (e.kind) {
    case 'ConversationStateUpdateEvent': {
      const key = str(e.key) ?? '';
      if (key === 'execution_status') {
        const look = statusLook(str(e.value) ?? '');
        const tone = look.tone === 'error' ? 'error' : look.tone === 'warn' ? 'warn' : 'neutral';
        return { icon: look.tone === 'busy' ? 'play' : look.icon, text: t('statusLine', look.label), tone };
      }
      if (key === 'full_state') return { icon: 'sync', text: t('stateRestored'), tone: 'neutral' };
      const value = (e.value ?? {}) as Record<string, unknown>;
      if (key === 'stuck')
        return {
          icon: 'warning',
          text: t('agentStuck'),
          tone: 'warn',
          detail: str(value['explanation']),
        };
      if (key === 'recovery')
        return {
          icon: 'debug-restart',
          text: t('recovered'),
          tone: 'warn',
          detail: str(value['reason']),
        };
      if (key === 'lost_events')
        return {
          icon: 'error',
          text: t('lostEvents', num(value['count']) ?? '?'),
          tone: 'error',
          detail: str(value['reason']),
        };
      if (key === 'title')
        return { icon: 'edit', text: t('renamedTo', shortValue(e.value)), tone: 'neutral' };
      // A decision on a worktree task (a rejection, apply, discard): the record says it in words.
      if (key === 'task_decision')
        return { icon: 'git-merge', text: str(value['summary']) ?? key, tone: 'neutral' };
      if (key === 'llm_retry')
        return {
          icon: 'sync',
          text: retryNoticeText(e.value),
          tone: 'warn',
          detail: str(value['error']),
          folded: true,
        };
      if (key === 'reconfirm') {
        const reasons = Array.isArray(value['reasons'])
          ? value['reasons'].filter((r) => typeof r === 'string')
          : [];
        return {
          icon: 'shield',
          text: str(value['risk'])
            ? t('reconfirm', levelWord(str(value['risk'])!), levelWord(str(value['approved_risk']) ?? 'LOW'))
            : t('reconfirmHigher', levelWord(str(value['approved_risk']) ?? 'LOW')),
          tone: 'warn',
          detail: reasons.join('\n'),
        };
      }
      if (key === 'hook_run') return hookRunLine(value);
      if (key === 'cost_unknown')
        return {
          icon: 'warning',
          text: value['max_tokens'] === null ? t('costCapUnenforced') : t('costUnknown'),
          tone: 'warn',
          detail: str(value['message']),
        };
      // A handoff whose definition asked for more than the conversation allows (effective-grant.ts).
      if (key === 'agent_start' && Array.isArray(value['narrowed']) && value['narrowed'].length)
        return {
          icon: 'shield',
          text: t('agentNarrowed', shortValue(value['agent_name'])),
          tone: 'warn',
          detail: value['narrowed'].filter((n) => typeof n === 'string').join('\n'),
        };
      if (key === 'agent_mode')
        return e.value === 'plan'
          ? {
              icon: 'checklist',
              text: t('planModeNotice'),
              tone: 'neutral',
            }
          : { icon: 'play', text: t('actModeNotice'), tone: 'neutral' };
      if (key === 'review_rejected')
        return {
          icon: 'discard',
          text: t(
            value['whole_file'] === true ? 'reviewRejectedFile' : 'reviewRejectedHunk',
            shortValue(str(value['path']) ?? '?'),
          ),
          tone: 'warn',
        };
      if (key === 'checkpoint') {
        // A restore says where it went back to; its undo (a restore back to a restore) says so.
        const meaning = restoreMeaning(e);
        if (meaning.undo)
          return {
            icon: 'redo',
            text: t('restoreUndone'),
            tone: 'neutral',
            detail: t('restoreUndoneDetail'),
          };
        return {
          icon: 'history',
          text: meaning.before ? t('filesRestoredBefore', meaning.before) : t('filesRestored'),
          tone: 'neutral',
          detail: t('filesRestoredDetail'),
        };
      }
      if (key === 'sandbox')
        // Only "on" reaches here (the others are SandboxWarning): a quiet line, the details folded.
        return {
          icon: 'shield',
          text: t('sandboxOn'),
          tone: 'neutral',
          detail: str(value['message']),
          folded: true,
        };
      if (key === 'checkpoint_unavailable')
        return {
          icon: 'warning',
          text: t('noCheckpoints'),
          tone: 'warn',
          detail: str(value['message']),
        };
      if (key === 'tool_source') {
        // A server of tools from outside failed or stopped (`source` is `mcp:NAME`, or `mcp`).
        const server = /^mcp:(.+)$/.exec(str(value['source']) ?? '')?.[1];
        return {
          icon: 'plug',
          text: server ? t('mcpServerUnavailable', server.slice(0, 60)) : t('mcpEntryLeftOut'),
          tone: 'warn',
          detail: str(value['message']),
        };
      }
      if (key === 'tools_offered') {
        // Which tools from outside (MCP servers, the editor's) the model is offered from here on.
        const tools = Array.isArray(value['tools']) ? value['tools'] : [];
        const named = tools.map((t) => {
          const f = (t as { function?: { name?: unknown; description?: unknown } } | null)?.function;
          return { name: str(f?.name) ?? '?', description: str(f?.description) ?? '' };
        });
        return {
          icon: 'plug',
          text: !named.length
            ? t('noToolsOffered')
            : named.length > 6
              ? t('toolsOfferedMore', firstNames(named), named.length - 6)
              : t('toolsOffered', firstNames(named)),
          tone: 'neutral',
          detail: named.map((n) => `${n.name}: ${n.description}`).join('\n') || undefined,
          folded: true,
        };
      }
      if (key === 'forked_from') return { icon: 'repo-forked', text: t('continuedFrom'), tone: 'neutral' };
      return { icon: 'symbol-event', text: t('stateChange', key, shortValue(e.value)), tone: 'neutral' };
    }
    case 'PauseEvent':
      return { icon: 'debug-pause', text: t('paused'), tone: 'neutral' };
    case 'CondensationRequest':
      return { icon: 'fold', text: t('condensationRequested'), tone: 'neutral' };
    case 'ConversationErrorEvent': {
      const code = str(e.code) ?? 'error';
      const detail = str(e.detail) ?? '';
      if (/stuck/i.test(code)) return { icon: 'warning', text: t('agentStuck'), tone: 'warn', detail };
      if (code === 'hook_stop') return { icon: 'debug-stop', text: t('hookStopped'), tone: 'warn', detail };
      return { icon: 'error', text: t('conversationError', code), tone: 'error', detail };
    }
    case 'CorruptRecord':
      return {
        icon: 'bracket-error',
        text: t('recordUnreadable', num(e.index) ?? '?'),
        tone: 'error',
        detail: str(e.reason),
      };
    default: {
      const explanation = str(e.explanation) ?? str(e.detail) ?? str(e.reason);
      if (/stuck/i.test(e.kind))
        return { icon: 'warning', text: t('agentSeemsStuck'), tone: 'warn', detail: explanation };
      return {
        icon: 'question',
        text: t('unknownEventKind', e.kind.slice(0, 80)),
        tone: 'neutral',
        detail: JSON.stringify(e, null, 2),
      };
    }
  }
}

/** Status changes shown on one line: the newest few, oldest first. */
const MAX_TRAIL = 5;

/** A status the conversation has left, as history: it must not read as where things stand now. */
const PAST: Record<string, WebviewTextKey> = {
  idle: 'pastIdle',
  running: 'pastRunning',
  paused: 'pastPaused',
  waiting_for_confirmation: 'pastWaiting',
  finished: 'statusFinished',
  error: 'pastError',
  stuck: 'pastStuck',
};

/** One line for a row and the events folded into it (see foldIntoPrevious in the store). */
function describeRow(row: Row, current: boolean): Line {
  const line = describe(row.event);
  const earlier = row.folded ?? [];
  const key = str(row.event.key);
  if (key === 'execution_status') {
    const values = [...earlier, row.event].map((e) => str(e.value) ?? '');
    // Only the newest status line is "Status: …"; one the conversation has since left is past,
    // muted, so it never contradicts the header or a finish below it.
    const labels = current
      ? values.map((v) => statusLook(v).label)
      : values.map((v) => (PAST[v] ? t(PAST[v]) : statusLook(v).label));
    const shown = labels.length > MAX_TRAIL ? ['…', ...labels.slice(-MAX_TRAIL)] : labels;
    return current
      ? { ...line, text: t('statusLine', shown.join(' → ')) }
      : { ...line, icon: 'history', tone: 'neutral', text: shown.join(' → '), past: true };
  }
  if (earlier.length === 0) return line;
  if (key === 'title')
    return {
      icon: 'repo-forked',
      text: t('continuedFromAs', shortValue(row.event.value)),
      tone: 'neutral',
    };
  return line;
}

// `rev`, unused, is what redraws the line when its detail is opened: a component reading a signal
// skips redrawing while its props are shallow-equal, and the row is mutated in place.
export function Notice({ row }: { row: Row; rev: number }) {
  if (row.event.kind === 'ConversationErrorEvent' && isLlmFailure(str(row.event['code']) ?? ''))
    return <LlmErrorCard row={row} />;
  if (isSandboxWarning(row)) return <SandboxWarning row={row} />;
  const line = describeRow(row, latestStatusEvent.value === row.event.id);
  const detail = line.detail?.trim();
  return (
    <div class={`notice tone-${line.tone}${line.past ? ' past' : ''}`}>
      <Icon name={line.icon} />
      {detail ? (
        <Collapsible
          id={`${row.key}:detail`}
          row={row}
          label={line.text}
          defaultOpen={!line.folded && line.tone !== 'neutral' && detail.length < 400}
        >
          {() => <pre class="code detail">{detail.slice(0, 20_000)}</pre>}
        </Collapsible>
      ) : (
        <span>{line.text}</span>
      )}
    </div>
  );
}
