// The event a command's ID argument names (`restore --at`, `show --at`, `diff --from/--to`): an
// event id, a checkpoint id, or a unique prefix of either. Unknown and ambiguous ids fail with a
// message that says what they fit, never a guess.
import { resolveEventRef } from '../../../core/checkpoints/timeline';
import type { Event } from '../../../core/events';

export function eventIdFor(events: readonly Event[], ref: string, dirArg: string): string {
  const found = resolveEventRef(events, ref);
  if ('eventId' in found) return found.eventId;
  if (found.problem === 'ambiguous') {
    const shown = found.candidates.slice(0, 5).join(', ');
    const more = found.candidates.length > 5 ? ` and ${found.candidates.length - 5} more` : '';
    throw new Error(
      `"${ref}" fits ${found.candidates.length} ids of this conversation: ${shown}${more}. Give more of the id.`,
    );
  }
  throw new Error(
    `No event or checkpoint "${ref}" in this conversation (logbook checkpoints ${dirArg} lists them).`,
  );
}
