// Title, status, token use and cost of the shown conversation, and its run controls.
import type { ConversationHeader } from '../../../src/protocol/messages';
import { formatCost, formatTokens, type StatusLook, statusLook } from '../lib/format';
import { count, t, tn } from '../lib/text';
import { rejectedInEditorCount, version } from '../state/store';
import { send } from '../vscode-api';
import { Icon } from './Icon';
import { IconButton } from './IconButton';

const PAUSABLE = new Set(['running', 'waiting_for_confirmation']);
const STOPPABLE = new Set(['running', 'paused', 'waiting_for_confirmation', 'stuck']);
const PLAN_WAITING: StatusLook = { label: t('planAwaitsApproval'), icon: 'checklist', tone: 'warn' };

/**
 * The status as the user reads it: in plan mode a run that ended with a plan has not finished the
 * task, it waits for Approve plan. The host derives that from the log (as the status bar does), so
 * a plan this panel has not loaded yet counts too.
 */
function shownStatus(h: ConversationHeader): StatusLook {
  return h.planAwaitsApproval ? PLAN_WAITING : statusLook(h.status);
}

export function Header({ header, surface }: { header: ConversationHeader | null; surface: string }) {
  const openInEditor =
    surface !== 'editor' ? (
      <IconButton
        icon="link-external"
        label={t('openInEditor')}
        onClick={() => send({ type: 'openInEditor' })}
      />
    ) : null;
  // No conversation: the sidebar already names Logbook (its container) and Chat (its view), so no
  // third title here; the editor tab has only this one.
  if (!header)
    return (
      <header class="header">
        <div class="header-line">
          {surface === 'editor' && <span class="title">Logbook</span>}
          <span class="spacer" />
          {openInEditor}
        </div>
      </header>
    );
  const { id: conversationId, status, readOnly } = header;
  const look = shownStatus(header);
  void version.value; // a rejection recorded later shows here too
  // Changes rejected in the editor: a finished conversation does not read as all done.
  const rejected = rejectedInEditorCount();
  const paused = status === 'paused';
  const reasoning = header.reasoningTokens ?? 0;
  return (
    <header class="header">
      <div class="header-line">
        <span class="title" title={header.title}>
          {header.title || t('untitled')}
        </span>
        <span class="spacer" />
        {!readOnly &&
          (paused ? (
            <IconButton
              icon="debug-continue"
              label={t('resume')}
              onClick={() => send({ type: 'resume', conversationId })}
            />
          ) : (
            <IconButton
              icon="debug-pause"
              label={t('pause')}
              disabled={!PAUSABLE.has(status)}
              onClick={() => send({ type: 'pause', conversationId })}
            />
          ))}
        {!readOnly && (
          <IconButton
            icon="debug-stop"
            label={t('stop')}
            disabled={!STOPPABLE.has(status)}
            onClick={() => send({ type: 'stop', conversationId })}
          />
        )}
        {openInEditor}
      </div>
      <div class="header-line meta">
        <span class={`status tone-${look.tone}`} role="status">
          <Icon name={look.icon} spin={look.tone === 'busy'} />
          {look.label}
        </span>
        {rejected > 0 && (
          <span class="badge tone-warn">
            <Icon name="discard" />
            {tn(rejected, 'rejectedInEditorCountOne', 'rejectedInEditorCountMany', count(rejected))}
          </span>
        )}
        {readOnly && (
          <span class="badge" title={header.heldBy ? t('writtenBy', header.heldBy) : undefined}>
            <Icon name="lock" />
            {t('readOnly')}
          </span>
        )}
        {header.task &&
          // A discarded task's branch is gone: struck through, and its tooltip says so.
          (header.readOnlyBecause === 'task-discarded' ? (
            <span
              class="badge task-branch gone"
              title={t('taskBranchGoneTitle', header.task.name, header.task.branch)}
            >
              <Icon name="git-branch" />
              <s>{header.task.branch}</s>
            </span>
          ) : (
            <span
              class="badge task-branch"
              title={t('taskBranchTitle', header.task.name, header.task.branch)}
            >
              <Icon name="git-branch" />
              {header.task.branch}
            </span>
          ))}
        {header.signature && (
          <SignatureBadge
            signature={header.signature}
            signers={header.signers ?? []}
            names={header.signerNames ?? []}
            note={header.signatureNote}
          />
        )}
        {header.model && <ModelButton model={header.model} />}
        {/* Words, not arrows: what each number counts is read, not guessed. */}
        <span class="metrics" title={metricsTitle(header)}>
          <span class="metric">
            {formatTokens(header.promptTokens)}
            <span class="metric-unit">{t('tokensIn')}</span>
            <span class="sr-only">{t('tokensInLong')}</span>
          </span>
          <span class="metric">
            {formatTokens(header.completionTokens)}
            <span class="metric-unit">{t('tokensOut')}</span>
            <span class="sr-only">{t('tokensOutLong')}</span>
          </span>
          {header.cachedTokens > 0 && (
            <span class="metric">
              {formatTokens(header.cachedTokens)}
              <span class="metric-unit">{t('tokensCached')}</span>
              <span class="sr-only">{t('tokensCachedLong')}</span>
            </span>
          )}
          {reasoning > 0 && (
            <span class="metric">
              <span class="sr-only">{t('tokensReasoningLong')}</span>
              {formatTokens(reasoning)}
              <span class="metric-unit">{t('tokensThinking')}</span>
            </span>
          )}
          <span class="metric cost">
            <span class="sr-only">{t('costLong')}</span>
            {formatCost(header.cost)}
          </span>
        </span>
      </div>
      {readOnly && header.heldBy && (
        <p class="held-by" role="note">
          {t('heldBy', header.heldBy)}
        </p>
      )}
    </header>
  );
}

/** The model the next step uses; a click opens Logbook: Select Model (the host's quick pick). */
function ModelButton({ model }: { model: NonNullable<ConversationHeader['model']> }) {
  // An external agent is the conversation's for good: nothing to pick instead.
  if (model.provider === 'acp' || model.provider === 'remote')
    return (
      <span
        class="model-button"
        title={t(model.provider === 'acp' ? 'agentTitle' : 'remoteTitle', model.name)}
        role="note"
      >
        <Icon name={model.provider === 'acp' ? 'robot' : 'remote'} />
        <span class="model-name">{model.name}</span>
      </span>
    );
  return (
    <button
      type="button"
      class="model-button"
      title={t(model.provider === 'vscode' ? 'modelTitleEditor' : 'modelTitleEndpoint', model.name)}
      aria-label={t('modelLabel', model.name)}
      onClick={() => send({ type: 'selectModel' })}
    >
      <Icon name={model.provider === 'vscode' ? 'vscode' : 'sparkle'} />
      <span class="model-name">{model.name}</span>
      <Icon name="chevron-down" />
    </button>
  );
}

function metricsTitle(h: ConversationHeader): string {
  const parts = [
    t('metricsPrompt', count(h.promptTokens), count(h.cachedTokens)),
    h.reasoningTokens
      ? t('metricsCompletionReasoning', count(h.completionTokens), count(h.reasoningTokens))
      : t('metricsCompletion', count(h.completionTokens)),
  ];
  return parts.join(', ');
}

type SignatureVerdict = NonNullable<ConversationHeader['signature']>;

const SIGNATURE_LOOK = {
  verified: {
    icon: 'verified',
    tone: 'ok',
    label: t('signatureVerified'),
    note: t('signatureVerifiedNote'),
  },
  broken: {
    icon: 'error',
    tone: 'error',
    label: t('signatureBroken'),
    note: t('signatureBrokenNote'),
  },
  truncated: {
    icon: 'error',
    tone: 'error',
    label: t('signatureTruncated'),
    note: t('signatureTruncatedNote'),
  },
  'unknown-signer': {
    icon: 'unverified',
    tone: 'warn',
    label: t('signatureUnknownSigner'),
    note: t('signatureUnknownSignerNote'),
  },
  unsigned: {
    icon: 'unverified',
    tone: 'warn',
    label: t('signatureUnsigned'),
    note: t('signatureUnsignedNote'),
  },
} as const;

/**
 * Says what was verified: the log and its signatures. "Log verified, signed by you" when every
 * signer is this window's key; "Log verified, known signer" otherwise.
 */
function verifiedLabel(names: readonly string[]): string {
  return names.length > 0 && names.every((n) => n === 'you') ? t('signedByYou') : t('knownSigner');
}

/** What verifying this conversation last found (when it was opened, or Logbook: Verify Conversation). */
function SignatureBadge({
  signature,
  signers,
  names,
  note,
}: {
  signature: SignatureVerdict;
  signers: readonly string[];
  names: readonly string[];
  note: string | undefined;
}) {
  const look = SIGNATURE_LOOK[signature];
  const label = signature === 'verified' && names.length > 0 ? verifiedLabel(names) : look.label;
  const who = names.length > 0 ? names : signers;
  const by = who.length > 0 ? `\n${t('signedBy', who.join(', '))}` : '';
  const said = note ? `\n${note}` : '';
  return (
    <span class={`badge signature tone-${look.tone}`} title={`${t('asOfLastCheck', look.note)}${by}${said}`}>
      <Icon name={look.icon} />
      {label}
    </span>
  );
}
