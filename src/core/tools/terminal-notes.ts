// The notes the terminal tool appends to a command's output for the model (OpenHands writes the
// same words, and keeps them in the observation's `metadata.suffix`). The chat shows how a command
// ended on a line of its own, so it reads the ending notes back with ENDING_NOTE and leaves them out.

export const NO_OUTPUT = '(no output)';

export const completedNote = (exitCode: number | null): string =>
  `[The command completed with exit code ${exitCode}.]`;

export const STOPPED_WAITING_NOTE =
  '[Stopped waiting because the agent was stopped; the command is still running (exit code -1).]';

export const stillRunningNote = (waitedSec: number): string =>
  `[The command is still running after ${waitedSec} s (exit code -1). Send an empty command with ` +
  'is_input true to read more output, text with is_input true to answer a prompt, or "C-c" with ' +
  'is_input true to stop it.]';

/** A note above that says how the command ended (each starts as written here). */
export const ENDING_NOTE =
  /^\[(The command completed with exit code -?\d+\.\]|The command is still running after |Stopped waiting because the agent was stopped)/;
