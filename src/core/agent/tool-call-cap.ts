// The cap on tool calls per model reply. Calls past it are still answered (with an error the model
// reads), so every tool_call id of the reply stays paired and the next request is valid; they are
// never validated, confirmed or executed.

/** The number of calls of a reply that may run: at least one, whatever the setting says. */
export function effectiveCap(setting: number): number {
  return Number.isNaN(setting) ? 1 : Math.max(1, Math.floor(setting));
}

/** The error a call past the cap gets. */
export function overCapError(total: number, cap: number): string {
  return (
    `This reply made ${total} tool calls; only the first ${cap} run (logbook.maxToolCallsPerReply). ` +
    'This call was not run: make it again in a later reply if it is still needed.'
  );
}
