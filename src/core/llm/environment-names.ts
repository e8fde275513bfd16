// The environment variables that name the endpoint, its key and the model, for every host (the CLI,
// VS Code, `npm start`): Logbook's own names first, the OpenAI SDK's names as fallbacks.

export const LLM_VARIABLES = {
  baseUrl: ['LOGBOOK_BASE_URL', 'OPENAI_BASE_URL'],
  apiKey: ['LOGBOOK_API_KEY', 'OPENAI_API_KEY'],
  model: ['LOGBOOK_MODEL'],
} as const;

export type LlmVariable = keyof typeof LLM_VARIABLES;

/** The first of the names for `which` that is set (not blank), with its value; undefined when none is. */
export function llmVariable(
  env: Readonly<Record<string, string | undefined>>,
  which: LlmVariable,
): { name: string; value: string } | undefined {
  for (const name of LLM_VARIABLES[which]) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}
