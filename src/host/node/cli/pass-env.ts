// `--pass-env NAME` (repeatable), with LOGBOOK_PASS_ENV and `terminal.passEnvironment` in the
// config file: Logbook's own variables (OPENAI_API_KEY, LOGBOOK_*) the user lets the agent's shell
// see. Without them the shell starts without those. The names are resolved as a setting.

/** The option spec each command that runs the agent takes. */
export const PASS_ENV_OPTION = { 'pass-env': { type: 'string', multiple: true } } as const;
