// Why an action ran without a question though its risk would have asked: the default mode found
// it contained in the sandbox and undoable by a checkpoint. An `unasked` state update, recorded
// right before the action starts; the chat shows it on the action's card, `logbook run` beside it.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';

export const UNASKED_KEY = 'unasked';

export const UnaskedSchema = lazySchema(() =>
  z.object({
    action_id: z.string(),
    /** One line a user reads ("contained; undo with checkpoint 1a2b3c4": it stays in the sandbox, and that checkpoint undoes it). */
    reason: z.string(),
    /** The checkpoint taken right before it, which undoes it. */
    checkpoint: z.string().optional(),
  }),
);

export type Unasked = z.infer<typeof UnaskedSchema>;

/** The reason as one line, naming the checkpoint that undoes it when there is one. */
export function unaskedReason(reason: string, checkpoint: string | undefined): string {
  return checkpoint ? `${reason}; undo with checkpoint ${checkpoint.slice(0, 7)}` : reason;
}
