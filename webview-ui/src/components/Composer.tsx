// The message box: Enter sends, Shift+Enter starts a new line, and two toggles attach the active file
// or the selection (the host reads them; the view only passes the flags). The draft survives reloads.
import { useState } from 'preact/hooks';
import type { Ref } from 'preact';
import { LIMITS } from '../../../src/protocol/messages';
import { savedDraft, setDraft } from '../state/persist';
import { send } from '../vscode-api';
import { IconButton } from './IconButton';

interface Props {
  readOnly: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
}

export function Composer({ readOnly, inputRef }: Props) {
  const [text, setText] = useState(savedDraft);
  const [file, setFile] = useState(false);
  const [selection, setSelection] = useState(false);
  const empty = text.trim() === '';

  const submit = () => {
    if (empty || readOnly) return;
    send({ type: 'sendMessage', text, attachActiveFile: file, attachSelection: selection });
    setText('');
    setDraft('');
    setFile(false);
    setSelection(false);
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={inputRef}
        class="composer-input"
        aria-label="Message to the agent"
        placeholder={readOnly ? 'This conversation is read-only' : 'Ask Logbook to do something…'}
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
