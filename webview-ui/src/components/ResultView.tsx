// The answer to an action, whatever its form: rejection, tool error, terminal output or other text.
import type { EventJson } from '../../../src/protocol/messages';
import { obj, str } from '../lib/fields';
import type { Row } from '../state/store';
import { GenericResult } from './GenericResult';
import { RejectedNote } from './RejectedNote';
import { TerminalResult } from './TerminalResult';
import { ToolErrorNote } from './ToolErrorNote';

export function ResultView({ result, row }: { result: EventJson; row?: Row }) {
  if (result.kind === 'UserRejectObservation') return <RejectedNote result={result} />;
  if (result.kind === 'AgentErrorEvent') return <ToolErrorNote result={result} row={row} />;
  const obs = obj(result.observation) ?? {};
  if (str(obs.kind) === 'TerminalObservation' || str(result.tool_name) === 'terminal')
    return <TerminalResult obs={obs} id={result.id} row={row} />;
  return <GenericResult obs={obs} id={result.id} row={row} />;
}
