// The message box: Enter sends, Shift+Enter starts a new line, and two toggles attach the active file
// or the selection (the host reads them; the view only passes the flags). The draft (text, chips and
// toggles) survives the panel being hidden or reloaded.
// Typing "@" or "#" opens completion of files, folders, problems, terminal output, the git diff and
// URLs; a picked item, a pasted image or a file dropped from the explorer becomes a removable chip.
// The host reads each attachment when the message is sent.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Ref } from 'preact';
import {
  type AgentMode,
  type ConversationHeader,
  LIMITS,
  type MentionItem,
} from '../../../src/protocol/messages';
import { type Chip, chipFor, droppedUris, fileChip, imageChip, mentionToken } from '../lib/attachments';
import { mentionAt, type MentionTrigger } from '../lib/mention-trigger';
import { cancelMentions, mentionItems, queryMentions } from '../state/mentions';
import { defaultMode, header, newConversationMode } from '../state/store';
import { Icon } from './Icon';
import {
  flushPersist,
  IMAGE_BUDGET_CHARS,
  savedComposer,
  savedDraft,
  setComposer,
  setDraft,
} from '../state/persist';
import { send } from '../vscode-api';
import { AttachmentChips } from './AttachmentChips';
import { MENTION_LIST_ID, MentionList, optionId } from './MentionList';
import { t } from '../lib/text';

const MODES: { mode: AgentMode; label: string; icon: string; title: string }[] = [
  { mode: 'plan', label: t('planMode'), icon: 'checklist', title: t('planModeTitle') },
  { mode: 'act', label: t('actMode'), icon: 'play', title: t('actModeTitle') },
];

interface Props {
  readOnly: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
}

export function Composer({ readOnly, inputRef }: Props) {
  // What was being written before the panel was hidden or reloaded: text, chips and toggles.
  const [restored] = useState(savedComposer);
  const [text, setText] = useState(savedDraft);
  const [file, setFile] = useState(restored.file);
  const [selection, setSelection] = useState(restored.selection);
  // Before a conversation exists the choice is kept here; afterwards the log holds it (header.mode).
  const choice = newConversationMode.value;
  const setChoice = (next: AgentMode | null) => (newConversationMode.value = next);
  const empty = text.trim() === '';
  const h = header.value;
  const mode: AgentMode = h ? (h.mode ?? 'act') : (choice ?? defaultMode.value);
  const choose = (next: AgentMode) => {
    if (h) {
      if (!h.readOnly && next !== mode) send({ type: 'setMode', conversationId: h.id, mode: next });
    } else setChoice(next);
  };

  const [chips, setChips] = useState<Chip[]>(restored.chips);
  const [problem, setProblem] = useState(() => unsavedNote(restored.unsaved));
  const saved = useRef(true);
  useEffect(() => {
    if (saved.current)
      saved.current = false; // as restored: nothing new to save
    else setComposer({ chips, file, selection });
  }, [chips, file, selection]);
  const [mention, setMention] = useState<MentionTrigger | undefined>(undefined);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLTextAreaElement | null>(null);
  const answer = mentionItems.value;
  const items = mention && answer ? answer.items : [];
  const listOpen = mention !== undefined && answer !== null;

  useEffect(() => setActive(0), [answer]);
  /** Where the caret goes once a picked mention is in the box (set right after that render). */
  const caretAfterPick = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const at = caretAfterPick.current;
    if (at === undefined || !box.current) return;
    caretAfterPick.current = undefined;
    box.current.focus();
    box.current.setSelectionRange(at, at);
  });

  const setRefs = (el: HTMLTextAreaElement | null) => {
    box.current = el;
    if (typeof inputRef === 'function') inputRef(el);
    else if (inputRef) inputRef.current = el;
  };

  const update = (value: string) => {
    setText(value);
    setDraft(value);
  };

  /** Opens, updates or closes completion for the word at the caret. */
  const track = (value: string, caret: number) => {
    const m = mentionAt(value, caret);
    if (!m || m.query.length > LIMITS.mentionQuery) {
      if (mention) closeMentions();
      return;
    }
    setMention(m);
    queryMentions(m.query, m.trigger === '/');
  };

  const closeMentions = () => {
    setMention(undefined);
    cancelMentions();
  };

  const addChips = (added: Chip[]) => {
    if (added.length === 0) return;
    setChips((now) => {
      const next = [...now];
      for (const c of added) {
        const images = next.filter((x) => x.attachment.kind === 'image').length;
        if (next.length >= LIMITS.attachments) {
          setProblem(t('tooManyAttachments', LIMITS.attachments));
          break;
        }
        if (c.attachment.kind === 'image' && images >= LIMITS.images) {
          setProblem(t('tooManyImages', LIMITS.images));
          continue;
        }
        if (!next.some((x) => JSON.stringify(x.attachment) === JSON.stringify(c.attachment))) next.push(c);
      }
      return next;
    });
  };

  const pick = (item: MentionItem) => {
    const m = mention;
    const el = box.current;
    closeMentions();
    if (!m || !el) return;
    const caret = el.selectionStart ?? text.length;
    const token = `${m.trigger}${mentionToken(item)} `;
    const value = text.slice(0, m.start) + token + text.slice(caret);
    update(value);
    addChips([chipFor(item)]);
    caretAfterPick.current = m.start + token.length;
  };

  const addFiles = async (files: readonly File[]) => {
    const errors: string[] = [];
    const added: Chip[] = [];
    for (const f of files) {
      const read = await imageChip(f);
      if (read.ok) added.push(read.chip);
      else errors.push(read.error);
    }
    addChips(added);
    setProblem(errors.length ? t('notAttached', errors.join('; ')) : '');
  };

  const submit = () => {
    if (empty || readOnly) return;
    // A shown conversation already holds its mode; a new one starts in the mode chosen here, or the default.
    send({
      type: 'sendMessage',
      text,
      attachActiveFile: file,
      attachSelection: selection,
      ...(!h && choice ? { mode: choice } : {}),
      ...(chips.length ? { attachments: chips.map((c) => c.attachment) } : {}),
    });
    setChoice(null);
    update('');
    setFile(false);
    setSelection(false);
    setChips([]);
    setProblem('');
    closeMentions();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (listOpen) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        if (items.length) setActive((active + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
        return;
      }
      if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey && items[active]) {
        e.preventDefault();
        pick(items[active]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        closeMentions();
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const notes =
    file && selection
      ? t('attachedFileAndSelection')
      : file
        ? t('attachedActiveFile')
        : selection
          ? t('attachedSelection')
          : '';
  return (
    <form
      class={`composer mode-${mode}`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onDragOver={(e) => {
        if (readOnly || !e.dataTransfer) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDrop={(e) => {
        if (readOnly || !e.dataTransfer) return;
        e.preventDefault();
        const images = [...e.dataTransfer.files].filter((f) => f.type.startsWith('image/'));
        const uris = droppedUris(e.dataTransfer);
        addChips(uris.map(fileChip).filter((c): c is Chip => c !== undefined));
        if (images.length) void addFiles(images);
        else if (uris.length === 0 && e.dataTransfer.files.length > 0) setProblem(t('dropOnlyImages'));
      }}
    >
      {listOpen && <MentionList items={items} active={active} onPick={pick} onHover={setActive} />}
      <AttachmentChips chips={chips} onRemove={(key) => setChips(chips.filter((c) => c.key !== key))} />
      <textarea
        ref={setRefs}
        class="composer-input"
        aria-label={t('messageLabel')}
        aria-autocomplete="list"
        aria-controls={listOpen ? MENTION_LIST_ID : undefined}
        aria-activedescendant={listOpen && items[active] ? optionId(active) : undefined}
        placeholder={
          readOnly ? t('readOnlyPlaceholder') : mode === 'plan' ? t('planPlaceholder') : t('askPlaceholder')
        }
        rows={1}
        maxLength={LIMITS.messageText}
        disabled={readOnly}
        value={text}
        onInput={(e) => {
          update(e.currentTarget.value);
          track(e.currentTarget.value, e.currentTarget.selectionStart ?? e.currentTarget.value.length);
        }}
        onClick={(e) => mention && track(text, e.currentTarget.selectionStart ?? text.length)}
        onBlur={() => {
          if (mention) closeMentions();
          flushPersist();
        }}
        onPaste={(e) => {
          // Images become chips; everything else is pasted as plain text by the box itself.
          const images = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith('image/'));
          if (images.length === 0) return;
          e.preventDefault();
          void addFiles(images);
        }}
        onKeyDown={onKeyDown}
      />
      {/* A sentence, not a label: on its own line, the full width of the box. */}
      <div class="composer-problem" aria-live="polite">
        {problem}
      </div>
      {readOnly ? (
        // Nothing here can be sent: no mode to switch, nothing to attach; the reason instead.
        <p class="composer-read-only" role="note">
          <Icon name="lock" />
          <span>{readOnlyReason(h)}</span>
        </p>
      ) : (
        <div class="composer-bar">
          {/* On an agent-server's conversation too: there Logbook rejects what the server holds. */}
          <div class="mode-toggle" role="group" aria-label={t('agentMode')}>
            {MODES.map((m) => (
              <button
                key={m.mode}
                type="button"
                class={`mode-option${mode === m.mode ? ' selected' : ''}`}
                aria-pressed={mode === m.mode}
                title={m.title}
                onClick={() => choose(m.mode)}
              >
                <Icon name={m.icon} />
                <span>{m.label}</span>
              </button>
            ))}
          </div>
          {/* Toggles with a word each: an icon alone did not say what it attaches. */}
          <button
            type="button"
            class="attach-toggle"
            aria-label={t('attachFileLabel')}
            title={t('attachFileTitle')}
            aria-pressed={file}
            onClick={() => setFile(!file)}
          >
            <Icon name="file" />
            <span aria-hidden="true">{t('attachFile')}</span>
          </button>
          <button
            type="button"
            class="attach-toggle"
            aria-label={t('attachSelectionLabel')}
            title={t('attachSelectionTitle')}
            aria-pressed={selection}
            onClick={() => setSelection(!selection)}
          >
            <Icon name="selection" />
            <span aria-hidden="true">{t('attachSelection')}</span>
          </button>
          <span class="attach-note" aria-live="polite">
            {notes ? t('attached', notes) : ''}
          </span>
          <span class="spacer" />
          <button
            type="submit"
            class="icon-button send"
            aria-label={t('send')}
            title={t('send')}
            disabled={empty}
          >
            <span class="codicon codicon-send" aria-hidden="true" />
          </button>
        </div>
      )}
    </form>
  );
}

/** Why nothing can be written here, as the host says it (a conversation with no reason: read-only). */
function readOnlyReason(h: ConversationHeader | null): string {
  if (h?.readOnlyBecause === 'task-discarded' && h.task) return t('readOnlyTaskDiscarded', h.task.name);
  if (h?.readOnlyBecause === 'another-window') return t('readOnlyAnotherWindow');
  return t('readOnlyPlaceholder');
}

/** Says which pasted images did not come back after a reload (they were too large to keep). */
function unsavedNote(names: string[]): string {
  if (names.length === 0) return '';
  const mb = (IMAGE_BUDGET_CHARS * 0.75) / 1024 / 1024;
  return t('pasteAgain', names.join(', '), mb.toFixed(1));
}
