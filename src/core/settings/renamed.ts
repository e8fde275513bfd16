// Settings that had another key before. The model's settings were `llm.*`, which VS Code's
// Settings editor shows as "Llm: Base Url"; under `model.*` they read "Model: Base URL". A value
// still under an old key is moved to the new one (VS Code) or read as it (the CLI's config file),
// with a line saying so, so that no one's configuration is lost to the rename.
const MODEL_RENAMES: readonly (readonly [string, string])[] = [
  ['llm.provider', 'model.provider'],
  ['llm.baseUrl', 'model.baseURL'],
  ['llm.model', 'model.name'],
  ['llm.apiKey', 'model.apiKey'],
  ['llm.editorModel', 'model.editorModel'],
  ['llm.temperature', 'model.temperature'],
  ['llm.maxOutputTokens', 'model.maxOutputTokens'],
  ['llm.reasoningEffort', 'model.reasoningEffort'],
  ['llm.supportsImages', 'model.supportsImages'],
  ['llm.promptCaching', 'model.promptCaching'],
  ['llm.pricing', 'model.pricing'],
  ['llm.extraHeaders', 'model.extraHeaders'],
  ['llm.replyTimeoutSeconds', 'model.replyTimeoutSeconds'],
  ['llm.maxReplyBytes', 'model.maxReplyBytes'],
];

/** Old key → new key, both without `logbook.`. */
export const RENAMED_SETTINGS: ReadonlyMap<string, string> = new Map(MODEL_RENAMES);
