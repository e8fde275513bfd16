// A file_editor action: path and command, a compact diff of the edit (from the observation's full
// before/after when present, else from the action's old_str/new_str), and "Open diff" for edits.
import { send } from '../vscode-api';
import { obj, str, type Json } from '../lib/fields';
import { header, type Row } from '../state/store';
import { Button } from './Button';
import { DiffView } from './DiffView';
import { Icon } from './Icon';
import { ResultView } from './ResultView';
import { t } from '../lib/text';
import type { WebviewTextKey } from '../../../src/protocol/webview-text';

const VERBS: Record<string, WebviewTextKey> = {
  view: 'verbView',
  create: 'verbCreate',
  str_replace: 'verbEdit',
  insert: 'verbInsert',
  undo_edit: 'verbUndoEdit',
};

function editTexts(
  action: Json,
  obs: Json | undefined,
): { before: string; after: string; numbered: boolean } | null {
  const oldContent = obs && str(obs.old_content);
  const newContent = obs && str(obs.new_content);
  if (obs && obs.is_error !== true && (oldContent !== undefined || newContent !== undefined))
    return { before: oldContent ?? '', after: newContent ?? '', numbered: true };
  const command = str(action.command);
  if (command === 'create') return { before: '', after: str(action.file_text) ?? '', numbered: false };
  if (command === 'str_replace')
    return { before: str(action.old_str) ?? '', after: str(action.new_str) ?? '', numbered: false };
  if (command === 'insert') return { before: '', after: str(action.new_str) ?? '', numbered: false };
  return null;
}

/** `rev` only makes the props differ when the row changed (see EventRow). */
export function FileEditBody({ action, row }: { action: Json; row: Row; rev: number }) {
  const path = str(action.path) ?? '';
  const command = str(action.command) ?? '';
  const result = row.result;
  const obs = result?.kind === 'ObservationEvent' ? obj(result.observation) : undefined;
  const edit = command === 'view' ? null : editTexts(action, obs);
  const conversationId = header.value?.id;
  // The name is shown whole when it fits; the folder before it takes what is left, cut from its start.
  const folder = path.slice(0, path.search(/[^\\/]*$/));
  const name = path.slice(folder.length);
  // Where the file really is when a symlink took the path elsewhere (the tool records it).
  const recordedReal = str(obs?.real_path);
  const realPath = recordedReal && recordedReal !== path ? recordedReal : undefined;
  return (
    <div class="file-edit">
      <div class="file-line">
        <Icon name={command === 'view' ? 'eye' : command === 'create' ? 'file-add' : 'file-code'} />
        <span class="file-verb">{VERBS[command] ? t(VERBS[command]) : command}</span>
        <span class="file-path" title={path}>
          {folder && (
            <span class="file-folder">
              <bdi>{folder}</bdi>
            </span>
          )}
          <span class="file-name">{name}</span>
        </span>
        {obs?.refused === true && <span class="file-refused">{t('fileRefused')}</span>}
        {realPath && obs?.refused !== true && (
          <span class="file-real-path" title={realPath}>
            {t('fileRealPath', realPath)}
          </span>
        )}
        {edit && conversationId && (
          <Button
            kind="secondary"
            icon="diff"
            label={t('openDiffOf', name)}
            onClick={() => send({ type: 'openDiff', conversationId, actionId: row.event.id })}
          >
            {t('openDiff')}
          </Button>
        )}
      </div>
      {edit && (
        <DiffView
          id={row.event.id}
          row={row}
          before={edit.before}
          after={edit.after}

          numbered={edit.numbered}
        />
      )}
      {result && !(edit && result.kind === 'ObservationEvent' && obs?.is_error !== true) && (
        <ResultView result={result} row={row} />
      )}
    </div>
  );
}
