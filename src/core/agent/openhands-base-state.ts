/**
 * The base_state.json of an exported conversation, as the OpenHands SDK's ConversationState needs
 * it to resume one: its id, workspace, status, confirmation policy and the agent (the LLM settings,
 * never the key, and the tools). Logbook's own settings with no SDK field stay in Logbook.
 */
import type { ConversationState } from '../state';
import { derivedUuid, isUuid } from '../events/derived-uuid';
import { SDK_DEFAULT_TOOLS, sdkToolSpecName } from '../events/openhands-sdk-tools';

export interface BaseStateInput {
  id: string;
  /** The folder the agent worked in, when known. */
  workspace: string | null;
  /** Where the export is written (the SDK's persistence_dir). */
  persistenceDir: string;
  maxIterations: number | null;
  confirmation: 'never' | 'always' | 'risky';
  /** The model the conversation used, when known. */
  model: string | null;
  /** The LLM endpoint, when it is not the default one (credentials in it are removed). */
  baseUrl: string | null;
  /** The tool names of the system prompt event. */
  toolNames: readonly string[];
  state: ConversationState;
}

const POLICY = { never: 'NeverConfirm', always: 'AlwaysConfirm', risky: 'ConfirmRisky' } as const;

export function sdkBaseState(input: BaseStateInput): Record<string, unknown> {
  const specs = [...new Set(input.toolNames.map(sdkToolSpecName).filter((n) => n !== undefined))];
  const llm: Record<string, unknown> = { usage_id: 'agent' };
  if (input.model) llm.model = input.model;
  const baseUrl = withoutCredentials(input.baseUrl);
  if (baseUrl) llm.base_url = baseUrl;
  return {
    // The SDK's conversation id is a UUID; a conversation named otherwise gets one derived from its name.
    id: isUuid(input.id) ? input.id : derivedUuid(`logbook-conversation:${input.id}`),
    agent: {
      llm,
      tools: specs.filter((n) => !SDK_DEFAULT_TOOLS.has(n)).map((name) => ({ name, params: {} })),
      include_default_tools: specs.filter((n) => SDK_DEFAULT_TOOLS.has(n)),
      kind: 'Agent',
    },
    // The SDK needs a folder; a conversation that never recorded one names the current one.
    workspace: { working_dir: input.workspace ?? '.', kind: 'LocalWorkspace' },
    persistence_dir: input.persistenceDir,
    max_iterations: input.maxIterations ?? 100,
    stuck_detection: true,
    execution_status: input.state.status,
    confirmation_policy: { kind: POLICY[input.confirmation] },
    activated_knowledge_skills: input.state.activatedSkills,
    blocked_actions: {},
    blocked_messages: {},
    stats: { usage_to_metrics: {} },
    secret_registry: { secret_sources: {} },
    agent_state: {},
  };
}

function withoutCredentials(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return null;
  }
}
