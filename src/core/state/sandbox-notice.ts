// What the log says about the boundary the agent's commands ran in: a `sandbox` state update,
// recorded before the first request and again whenever it changes (the sandbox could not start,
// the user turned it off). The chat and `logbook show` read it; the confirmation policy asks
// before every command while it is not "on".
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';

export const SANDBOX_KEY = 'sandbox';

export const SandboxNoticeSchema = lazySchema(() =>
  z.object({
    /** on: commands are contained; off: the user turned it off; unavailable: none can start here. */
    state: z.enum(['on', 'off', 'unavailable']),
    /** `logbook.sandbox.mode` is "required": without a sandbox no command runs. */
    required: z.boolean().optional(),
    /** One sentence a user reads. */
    message: z.string(),
    /** What to do about it (the package, the sysctl, the AppArmor profile). */
    fix: z.string().optional(),
  }),
);

export type SandboxNotice = z.infer<typeof SandboxNoticeSchema>;

/** Whether a new notice says something the recorded one does not. */
export function sandboxNoticeChanged(recorded: SandboxNotice | null, now: SandboxNotice): boolean {
  return !recorded || recorded.state !== now.state || recorded.required !== now.required;
}
