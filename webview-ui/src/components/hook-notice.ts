// A hook's run as one line of the chat: which event and hook, what it decided; its reason, its
// rewrite, what it told the model and why it stopped the agent in the detail (docs/HOOKS.md).
import { str } from '../lib/fields';
import { t } from '../lib/text';
import type { WebviewTextKey } from '../../../src/protocol/webview-text';

export interface HookLine {
  icon: string;
  text: string;
  tone: 'neutral' | 'warn' | 'error';
  detail?: string;
  folded?: boolean;
}

export function hookRunLine(v: Record<string, unknown>): HookLine {
  const stop = str(v['stop']);
  const status = str(v['status']);
  const decision = str(v['decision']);
  const rewrite = v['updated_input'];
  const outcome: WebviewTextKey = stop
    ? 'hookStoppedAgent'
    : status === 'failed'
      ? 'hookFailed'
      : status === 'blocked' || decision === 'deny' || decision === 'block'
        ? 'hookBlocked'
        : rewrite
          ? 'hookRewrote'
          : decision === 'ask'
            ? 'hookAsks'
            : decision === 'allow'
              ? 'hookAllowed'
              : 'hookRan';
  const detail = [
    str(v['reason']),
    stop,
    rewrite && typeof rewrite === 'object' ? t('hookRewriteDetail', JSON.stringify(rewrite)) : undefined,
    str(v['additional_context']),
    str(v['system_message']),
  ].filter((d): d is string => !!d);
  const tone =
    status === 'failed' ? 'error' : outcome === 'hookRan' || outcome === 'hookAllowed' ? 'neutral' : 'warn';
  const on = [str(v['event']) ?? '?', str(v['tool_name'])].filter(Boolean).join(' ');
  return {
    icon: tone === 'neutral' ? 'plug' : 'shield',
    text: t('hookRun', on, shortCommand(str(v['command']) ?? ''), t(outcome)),
    tone,
    ...(detail.length ? { detail: detail.join('\n') } : {}),
    ...(tone === 'neutral' ? { folded: true } : {}),
  };
}

/** The command as the user knows it: a script's name rather than its folder, and not too long. */
export function shortCommand(command: string): string {
  const [first = '', ...rest] = command.trim().split(/\s+/);
  const name = first.replace(/^["']?(?:.*\/)?/, '').replace(/["']$/, '');
  const shown = [name, ...rest].join(' ');
  return shown.length > 60 ? `${shown.slice(0, 60)}…` : shown;
}
