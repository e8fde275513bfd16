// A terminal observation: how the command ended (exit code, timeout, error) and its output.
import { num, obj, contentText, str, type Json } from '../lib/fields';
import { cleanTerminalOutput, commandOutput, exportedNames } from '../lib/terminal-output';
import type { Row } from '../state/store';
import { Icon } from './Icon';
import { OutputBlock } from './OutputBlock';
import { t } from '../lib/text';

function ending(obs: Json): { icon: string; text: string; tone: 'ok' | 'error' | 'warn' } {
  const exit = num(obs.exit_code) ?? num(obj(obs.metadata)?.exit_code);
  if (obs.timeout === true || (exit === -1 && obs.is_error !== true))
    return { icon: 'watch', text: t('stillRunning'), tone: 'warn' };
  if (exit !== undefined && exit >= 0)
    return exit === 0
      ? { icon: 'pass', text: t('exitCode', 0), tone: 'ok' }
      : { icon: 'error', text: t('exitCode', exit), tone: 'error' };
  return obs.is_error === true
    ? { icon: 'error', text: t('commandDidNotRun'), tone: 'error' }
    : { icon: 'info', text: t('statusFinished'), tone: 'ok' };
}

export function TerminalResult({ obs, id, row }: { obs: Json; id: string; row?: Row }) {
  const end = ending(obs);
  // The command the card shows (its action's), whose echo the output need not repeat.
  const command = str(obj(row?.event.action)?.command) ?? str(obs.command);
  // Each command starts clean; what it exported is what reaches the later ones.
  const exported = exportedNames(str(obj(obs.metadata)?.carried));
  return (
    <div class="terminal-result">
      <OutputBlock
        text={cleanTerminalOutput(
          commandOutput(contentText(obs.content), str(obj(obs.metadata)?.suffix)),
          command,
        )}
        id={`${id}:out`}
        row={row}
        tone={end.tone === 'error' ? 'error' : 'normal'}
      />
      <div class={`result-note tone-${end.tone}`} data-exit={num(obs.exit_code) ?? ''}>
        <Icon name={end.icon} />
        <span>{end.text}</span>
      </div>
      {exported && (
        <div class="result-note carried">
          <Icon name="arrow-right" />
          <span>{t('exportedToLater', exported)}</span>
        </div>
      )}
    </div>
  );
}
