// The settings in the order a user looks for them: what model answers first, then what asks before
// it runs, where commands run, the safety net, the limits, outside tools, and the rest. VS Code's
// Settings editor shows them in these categories and this order (package.json's
// contributes.configuration, checked against this list); docs/SETTINGS.md follows it too.
export interface SettingCategory {
  title: string;
  /**
   * VS Code's id of the category. It is the settings' common key prefix, so the editor shows
   * "Base URL" under Model (and "Model: Base URL" in search results) rather than "Llm: Base Url".
   */
  id: string;
  /** Every setting of the category (both hosts'), in the order shown. */
  keys: readonly string[];
}

export const SETTING_CATEGORIES: readonly SettingCategory[] = [
  {
    title: 'Model',
    id: 'logbook.model',
    keys: [
      'model.provider',
      'model.baseURL',
      'model.name',
      'model.apiKey',
      'model.editorModel',
      'demo',
      'model.temperature',
      'model.maxOutputTokens',
      'model.reasoningEffort',
      'model.supportsImages',
      'model.promptCaching',
      'model.pricing',
      'model.extraHeaders',
      'model.replyTimeoutSeconds',
      'model.maxReplyBytes',
    ],
  },
  {
    title: 'Confirmation',
    id: 'logbook.confirmation',
    keys: ['confirmation.mode', 'confirmation.allowRules', 'hooks', 'agent.defaultMode'],
  },
  {
    title: 'Sandbox',
    id: 'logbook.sandbox',
    keys: [
      'sandbox.mode',
      'sandbox.allowedHosts',
      'sandbox.denyRead',
      'sandbox.homeReadable',
      'sandbox.writable',
      'sandbox.allowUnixSockets',
      'sandbox.bwrap',
      'terminal.timeoutSeconds',
      'terminal.passEnvironment',
    ],
  },
  {
    title: 'Checkpoints',
    id: 'logbook.checkpoints',
    keys: [
      'checkpoints.enabled',
      'checkpoints.exclude',
      'checkpoints.maxFileSizeMB',
      'checkpoints.dir',
      'checkpoints.maxFiles',
      'worktrees.dir',
      'worktrees.setup',
    ],
  },
  {
    title: 'Budget',
    id: 'logbook.budget',
    keys: ['budget.maxCost', 'budget.maxTokens', 'maxIterations', 'maxToolCallsPerReply'],
  },
  {
    title: 'MCP',
    id: 'logbook.mcp',
    keys: [
      'mcp.servers',
      'mcp.configFile',
      'acp.agents',
      'acp.replyTimeoutSeconds',
      'tools.includeEditorTools',
    ],
  },
  {
    title: 'Advanced',
    id: 'logbook.advanced',
    keys: [
      'condenser.maxSize',
      'condenser.keepFirst',
      'web.allowPrivateAddresses',
      'web.allowedHosts',
      'web.searxngUrl',
      'remote.servers',
      'signing.keyFile',
    ],
  },
];

/** The category a setting is shown in; settings not placed yet fall into Advanced, last. */
export function categoryOf(key: string): SettingCategory {
  return SETTING_CATEGORIES.find((c) => c.keys.includes(key)) ?? SETTING_CATEGORIES.at(-1)!;
}
