// One tool call: tool, summary, risk, approval state, the model's thinking (collapsed), then a body
// specific to the tool (terminal command and output, file diff, or generic arguments) with its result.
import type { ComponentChildren } from 'preact';
import { contentText, obj, splitThink, str } from '../lib/fields';
import { isSideEffectFree } from '../lib/side-effects';
import { hookRewrite } from '../state/hook-rewrites';
import { askedRisk, header, isLatestBatch, rejectedInEditor, type Row, unaskedReason } from '../state/store';
import { Collapsible } from './Collapsible';
import { DelegatedAgents, hasDelegatedAgents } from './DelegatedAgents';
import { FileEditBody } from './FileEditBody';
import { HookRewriteLine } from './HookRewriteLine';
import { GenericToolBody, InvalidCallBody } from './GenericToolBody';
import { Icon } from './Icon';
import { Markdown } from './Markdown';
import { McpToolBody } from './McpToolBody';
import { PendingBadge, RiskBadge, RiskLine } from './RiskBadge';
import { TerminalBody } from './TerminalBody';
import { t } from '../lib/text';
import { toolIcon } from '../lib/tool-icons';

export function ActionCard({ row, rev, tools }: { row: Row; rev: number; tools?: ComponentChildren }) {
  const e = row.event;
  const tool = str(e.tool_name) ?? t('toolFallback');
  // A PreToolUse hook's rewrite is what ran: the body shows it, a line says so and what was asked.
  const rewrite = hookRewrite(e);
  const action = rewrite?.action ?? obj(e.action);
  // The model's summary described the call it made, not the rewritten one.
  const summary = rewrite ? undefined : str(e.summary);
  const { visible, thinking } = splitThink(contentText(e.thought));
  const reasoning = str(e.reasoning_content)?.trim() || thinking;
  const h = header.value;
  const pending = h?.pendingActionIds.includes(e.id) ?? false;
  const waiting = !pending && !row.result && h?.status === 'running' && isLatestBatch(e);
  const kind = str(action?.kind);
  const modelRisk = str(e.security_risk);
  // The rating Logbook asked at (its rules', the highest of theirs and the model's), kept after the
  // action ran: the card shows it in place of the model's, and says whose each is.
  const effective =
    (pending ? h?.pendingRisks?.find((r) => r.actionId === e.id) : undefined) ?? askedRisk(e.id);
  // While the user decides, the rules' reason shows even when the model gave the same rating
  // (a build file is "code you will run" whatever the model said).
  const raised =
    effective && (effective.risk !== modelRisk || (pending && 'byRules' in effective && effective.byRules))
      ? effective
      : undefined;
  // An MCP tool the server marks read-only takes no rating from the model: no UNKNOWN badge.
  const unrated = kind === 'MCPToolAction' && modelRisk === 'UNKNOWN';
  const badge = !isSideEffectFree(tool, action) && !raised && !unrated;
  const unasked = pending ? undefined : unaskedReason(e.id);
  return (
    <div class={`card action${pending ? ' pending' : ''}`}>
      {visible && <Markdown class="thought" text={visible.slice(0, 100_000)} />}
      <div class="card-head">
        <Icon name={toolIcon(tool)} class="tool-icon" />
        <span class="tool-name">{tool}</span>
        {summary && (
          <span class="summary" title={summary}>
            {summary}
          </span>
        )}
        {tools}
        <span class="card-badges">
          {pending && <PendingBadge />}
          {waiting && <Icon name="loading" spin class="running" />}
          {badge && <RiskBadge risk={modelRisk} />}
        </span>
      </div>
      {rewrite && <HookRewriteLine rewrite={rewrite} />}
      {raised && (
        <RiskLine
          risk={raised.risk}
          reason={raised.reason ?? ''}
          modelRisk={modelRisk}
          server={h?.model?.provider === 'remote'}
        />
      )}
      {unasked && (
        <div class="unasked-line muted" title={unasked}>
          <Icon name="shield" />
          <span>{unasked}</span>
        </div>
      )}
      {reasoning && (
        <Collapsible id={`${e.id}:reasoning`} row={row} label={t('thinking')} class="reasoning">
          {() => <Markdown class="muted" text={reasoning.slice(0, 100_000)} />}
        </Collapsible>
      )}
      {!action ? (
        <InvalidCallBody row={row} />
      ) : tool === 'terminal' || kind === 'TerminalAction' ? (
        <TerminalBody action={action} row={row} />
      ) : tool === 'file_editor' || kind === 'FileEditorAction' ? (
        <FileEditBody action={action} row={row} rev={rev} />
      ) : kind === 'MCPToolAction' ? (
        <McpToolBody action={action} row={row} />
      ) : tool === 'delegate' && hasDelegatedAgents(e.id) ? null : (
        <GenericToolBody action={action} row={row} />
      )}
      {tool === 'delegate' && <DelegatedAgents actionId={e.id} />}
      {rejectedInEditor(e.id) && (
        <div class="result-note tone-warn">
          <Icon name="discard" />
          <span>{t('rejectedInEditor')}</span>
        </div>
      )}
    </div>
  );
}
