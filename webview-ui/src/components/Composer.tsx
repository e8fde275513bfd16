// The message box: Enter sends, Shift+Enter starts a new line, and two toggles attach the active file
// or the selection (the host reads them; the view only passes the flags). The draft survives reloads.
import { useState } from 'preact/hooks';
import type { Ref } from 'preact';
import { type AgentMode, LIMITS } from '../../../src/protocol/messages';
import { defaultMode, header } from '../state/store';
import { Icon } from './Icon';
import { savedDraft, setDraft } from '../state/persist';
import { send } from '../vscode-api';
import { IconButton } from './IconButton';

const MODES: { mode: AgentMode; label: string; icon: string; title: string }[] = [
  {
    mode: 'plan',
    label: 'Plan',
    icon: 'checklist',
    title: 'Plan mode: the agent only reads and answers with a plan for you to approve',
  },
  { mode: 'act', label: 'Act', icon: 'play', title: 'Act mode: the agent may change files and run commands' },
];

interface Props {
  readOnly: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
}

export function Composer({ readOnly, inputRef }: Props) {
  const [text, setText] = useState(savedDraft);
  const [file, setFile] = useState(false);
  const [selection, setSelection] = useState(false);
  // Before a conversation exists the choice is kept here; afterwards the log holds it (header.mode).
  const [choice, setChoice] = useState<AgentMode | null>(null);
  const empty = text.trim() === '';
  const h = header.value;
  const mode: AgentMode = h ? (h.mode ?? 'act') : (choice ?? defaultMode.value);
  const choose = (next: AgentMode) => {
    if (h) {
      if (!h.readOnly && next !== mode) send({ type: 'setMode', conversationId: h.id, mode: next });
    } else setChoice(next);
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
    });
    setChoice(null);
    setText('');
    setDraft('');
    setFile(false);
    setSelection(false);
  };

  return (
    <form
      class={`composer mode-${mode}`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={inputRef}
        class="composer-input"
        aria-label="Message to the agent"
        placeholder={
          readOnly
            ? 'This conversation is read-only'
            : mode === 'plan'
              ? 'Describe what to plan (the agent only reads)…'
              : 'Ask Logbook to do something…'
        }
        rows={1}
        maxLength={LIMITS.messageText}
        disabled={readOnly}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setDraft(e.currentTarget.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <div class="composer-bar">
        <div class="mode-toggle" role="group" aria-label="Agent mode">
          {MODES.map((m) => (
            <button
              key={m.mode}
              type="button"
              class={`mode-option${mode === m.mode ? ' selected' : ''}`}
              aria-pressed={mode === m.mode}
              title={m.title}
              disabled={readOnly}
              onClick={() => choose(m.mode)}
            >
              <Icon name={m.icon} />
              <span>{m.label}</span>
            </button>
          ))}
        </div>
        <IconButton
          icon="file"
          label="Attach the active file"
          pressed={file}
          disabled={readOnly}
          onClick={() => setFile(!file)}
        />
        <IconButton
          icon="selection"
          label="Attach the selection"
          pressed={selection}
          disabled={readOnly}
          onClick={() => setSelection(!selection)}
        />
        <span class="attach-note" aria-live="polite">
          {[file && 'active file', selection && 'selection'].filter(Boolean).join(' and ')}
          {file || selection ? ' attached' : ''}
        </span>
        <span class="spacer" />
        <button
          type="submit"
          class="icon-button send"
          aria-label="Send (Enter)"
          title="Send (Enter)"
          disabled={empty || readOnly}
        >
          <span class="codicon codicon-send" aria-hidden="true" />
        </button>
      </div>
    </form>
  );
}
