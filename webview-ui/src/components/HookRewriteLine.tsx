// The mark on a card whose call a PreToolUse hook rewrote: which hook and why, then, muted, what
// the model had asked for (the card's body shows what ran). Long values are cut; the title has all.
import type { HookRewrite } from '../state/hook-rewrites';
import { t } from '../lib/text';
import { shortCommand } from './hook-notice';
import { Icon } from './Icon';

export function HookRewriteLine({ rewrite }: { rewrite: HookRewrite }) {
  const hook = shortCommand(rewrite.by);
  const mark = rewrite.reason ? t('rewrittenByHookWhy', hook, rewrite.reason) : t('rewrittenByHook', hook);
  const asked = t('modelAskedFor', originalText(rewrite.original));
  return (
    <div class="hook-rewrite">
      <div class="hook-rewrite-mark" title={mark}>
        <Icon name="shield" />
        <span>{mark}</span>
      </div>
      <div class="hook-rewrite-original muted" title={asked}>
        <span>{asked}</span>
      </div>
    </div>
  );
}

/** A command as it was typed; other fields as `name: value`. */
function originalText(original: Record<string, unknown>): string {
  const entries = Object.entries(original);
  const text =
    entries.length === 1 && entries[0]![0] === 'command' && typeof entries[0]![1] === 'string'
      ? entries[0]![1]
      : entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v ?? null)}`).join(', ');
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}
