// What the log says about the kind of shell the agent's commands ran in: a `shell` state update,
// recorded before the first request and again if it changes. A replay starts the same kind, so a
// command finds the same environment (the PATH, variables and aliases the user's startup files set)
// and a startup file's chatter is not taken for a change in the command.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';

export const SHELL_KEY = 'shell';

export const ShellNoticeSchema = lazySchema(() =>
  z.object({
    /** user: the shell loaded the user's startup files (an editor's terminal); none: a plain shell. */
    startup: z.enum(['user', 'none']),
  }),
);

export type ShellNotice = z.infer<typeof ShellNoticeSchema>;
export type ShellStartup = ShellNotice['startup'];
