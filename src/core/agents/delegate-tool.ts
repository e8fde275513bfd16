// `delegate` (the OpenHands SDK's DelegateTool: DelegateAction {command, ids, agent_types, tasks}):
// the main agent hands tasks to named agents. `spawn` names sub-agents (ids, each with an agent
// type); `delegate` gives each id a task, runs the agents (side by side when all of them only read,
// one after the other otherwise) and returns their final messages as one observation. Each child
// runs its own loop in its own conversation (child-runner.ts in the host); a child that waits for
// the user's confirmation suspends this action, which runs again, and picks the children up where
// they stopped, once the user has answered. Pausing the conversation pauses its running children
// (and theirs) at their next step: the action suspends, unanswered, and resumes them with the run.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ToolSpec } from '../tools';
import { BUILTIN_PARAMETERS } from '../tools/builtin-parameters';
import { errorObservation, observation } from '../tools/observation';
import { SuspendAction } from '../tools/suspend';
import { type AgentDefinition, isReadOnlyAgent } from './definition';
import { type HeldDefinition, notAcceptedMessage } from './definition-trust';

export const DELEGATE_TOOL_NAME = 'delegate';

/**
 * How deep agents may nest, the main agent counting as the first: main, its child and the child's
 * child. Deeper chains cost much and are hard to follow; the agent at the cap is told to do the work itself.
 */
export const AGENT_DEPTH_CAP = 3;

const DelegateArgsSchema = lazySchema(() =>
  z.object({
    command: z
      .enum(['spawn', 'delegate'])
      .describe(
        '`spawn` names sub-agents (ids with agent_types); `delegate` gives each id a task and runs them.',
      ),
    ids: z.array(z.string().min(1)).nullish().describe('Sub-agent ids, e.g. ["find-auth", "find-tests"].'),
    agent_types: z
      .array(z.string().min(1))
      .nullish()
      .describe('The agent of each id, in the order of ids (default: the id itself when it names an agent).'),
    tasks: z
      .record(z.string(), z.string().min(1))
      .nullish()
      .describe('For `delegate`: {"<id>": "<self-contained task>"}.'),
  }),
);
export type DelegateArgs = z.infer<typeof DelegateArgsSchema>;

export interface ChildRequest {
  /** The delegating ActionEvent: the child's conversation is named after it and the sub-agent id. */
  actionId: string;
  subId: string;
  agent: AgentDefinition;
  task: string;
  signal: AbortSignal;
  /** Aborted when the user pauses the delegating conversation: the child pauses at its next step. */
  pause?: AbortSignal;
}

export interface ChildResult {
  subId: string;
  agentName: string;
  branch: string;
  conversationId: string;
  /** The child's status when it stopped: `finished`, or waiting for the user, or why it stopped. */
  status: string;
  escalated: boolean;
  /** Its final message (finish or escalate), or what stopped it. */
  message: string;
  /** Paused with the delegating conversation, not ended: it goes on when the delegation runs again. */
  paused?: boolean;
}

/** Runs (or resumes) one child to its next stop. Provided by the host, which owns the stores. */
export interface ChildRunner {
  run(req: ChildRequest): Promise<ChildResult>;
  /** Ends the children of this action that have not ended (paused ones, when the user stops). */
  endUnfinished?(actionId: string): Promise<void>;
}

export interface DelegateDeps {
  agents: () => readonly AgentDefinition[];
  runner: ChildRunner;
  /** Tools that only read, by name: an agent with only these (or in plan mode) may run beside others. */
  readOnlyTools: ReadonlySet<string>;
  /** The depth of the agent this tool belongs to: 1 for the main agent, 2 for its child... */
  depth?: number;
  /**
   * A definition of this name that the user has not accepted (definition-trust.ts), looked up when
   * no usable agent has the name: the model is told why, not that there is no such agent.
   */
  held?: (name: string) => HeldDefinition | null;
}

/** The delegate tool, and how a reopened conversation gives it back the sub-agents its log spawned. */
export type DelegateTool = ToolSpec<DelegateArgs> & {
  /** A `spawn` the log recorded (and answered without error), read back on open. */
  remember(ids: readonly string[], agentTypes: readonly string[]): void;
};

export function createDelegateTool(deps: DelegateDeps): DelegateTool {
  // Ids named by `spawn`, with their agent; the log keeps the spawn, `remember` restores it on open.
  const spawned = new Map<string, string>();
  const fail = (command: string, text: string) => errorObservation('DelegateObservation', text, { command });
  return {
    remember(ids, agentTypes) {
      ids.forEach((id, i) => {
        if (agentTypes[i]) spawned.set(id, agentTypes[i]);
      });
    },
    name: DELEGATE_TOOL_NAME,
    description: [
      'Hand self-contained tasks to other agents. Each runs on its own with its own tools and returns its final message.',
      'Call with command "delegate", tasks {"<id>": "<task>"} and agent_types naming each id\'s agent (ids in the same order).',
      'Read-only agents given tasks in one call run at the same time.',
    ].join(' '),
    // The call itself changes nothing: every action of a child is rated and confirmed on its own.
    readOnly: true,
    resumable: true,
    abandon: async (actionId) => deps.runner.endUnfinished?.(actionId),
    actionKind: 'DelegateAction',
    observationKind: 'DelegateObservation',
    argsSchema: DelegateArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.delegate,
    toActionFields: (args) => ({
      command: args.command,
      ids: args.ids ?? null,
      agent_types: args.agent_types ?? null,
      tasks: args.tasks ?? null,
    }),
    execute: async (args, ctx) => {
      const typeOf = (id: string): string | undefined => {
        const at = args.ids?.indexOf(id) ?? -1;
        if (at >= 0 && args.agent_types?.[at]) return args.agent_types[at];
        return spawned.get(id) ?? (deps.agents().some((a) => a.name === id) ? id : undefined);
      };
      const known = () =>
        deps
          .agents()
          .map((a) => a.name)
          .join(', ');
      if (args.command === 'spawn') {
        const ids = args.ids ?? [];
        if (!ids.length) return fail('spawn', 'spawn needs ids (and agent_types).');
        for (const id of ids) {
          const type = typeOf(id);
          const held = type && !deps.agents().some((a) => a.name === type) ? deps.held?.(type) : null;
          if (held) return fail('spawn', notAcceptedMessage(held));
          if (!type || !deps.agents().some((a) => a.name === type))
            return fail('spawn', `No agent for "${id}": give agent_types (known agents: ${known()}).`);
          spawned.set(id, type);
        }
        return observation(
          'DelegateObservation',
          `Spawned ${ids.map((id) => `${id} (${spawned.get(id)})`).join(', ')}. Give them tasks with command "delegate".`,
          { command: 'spawn' },
        );
      }
      const depth = deps.depth ?? 1;
      if (depth >= AGENT_DEPTH_CAP)
        return fail(
          'delegate',
          `Refused: agents nest at most ${AGENT_DEPTH_CAP} deep and this agent is already at depth ${depth}. ` +
            'Do the task yourself with your own tools, or finish and say what is left.',
        );
      const tasks = Object.entries(args.tasks ?? {});
      if (!tasks.length) return fail('delegate', 'delegate needs tasks: {"<id>": "<task>"}.');
      const requests: ChildRequest[] = [];
      for (const [id, task] of tasks) {
        const type = typeOf(id);
        const agent = deps.agents().find((a) => a.name === type);
        const held = !agent && type ? deps.held?.(type) : null;
        if (held) return fail('delegate', notAcceptedMessage(held));
        if (!agent)
          return fail('delegate', `No agent for "${id}": name it in agent_types (known agents: ${known()}).`);
        requests.push({
          actionId: ctx.actionId ?? '',
          subId: id,
          agent,
          task,
          signal: ctx.signal,
          ...(ctx.pause ? { pause: ctx.pause } : {}),
        });
      }
      if (!ctx.actionId) return fail('delegate', 'delegate ran without its action.');
      const results = await runAll(requests, deps);
      if (results.some((r) => r.status === 'waiting_for_confirmation')) {
        const who = results.filter((r) => r.status === 'waiting_for_confirmation').map((r) => r.branch);
        throw new SuspendAction(`${who.join(', ')} wait${who.length === 1 ? 's' : ''} for confirmation`);
      }
      if (results.some((r) => r.paused))
        throw new SuspendAction(
          `${results
            .filter((r) => r.paused)
            .map((r) => r.branch)
            .join(', ')} paused`,
          'paused',
        );
      const text = results.map(resultText).join('\n\n');
      const allFailed = results.every((r) => r.status !== 'finished');
      return observation('DelegateObservation', text, { command: 'delegate' }, allFailed);
    },
  };
}

/** Read-only agents side by side; as soon as one may change things, one after the other. */
async function runAll(requests: ChildRequest[], deps: DelegateDeps): Promise<ChildResult[]> {
  if (requests.every((r) => isReadOnlyAgent(r.agent, deps.readOnlyTools)))
    return Promise.all(requests.map((r) => deps.runner.run(r)));
  const out: ChildResult[] = [];
  for (const r of requests) {
    const result = await deps.runner.run(r);
    out.push(result);
    // One waits for the user, or was paused: the ones after it start once it goes on.
    if (result.status === 'waiting_for_confirmation' || result.paused) break;
  }
  return out;
}

function resultText(r: ChildResult): string {
  const how = r.status === 'finished' ? (r.escalated ? 'escalated' : 'finished') : `stopped (${r.status})`;
  return `[${r.subId}] ${r.agentName} agent (${r.branch}) ${how}:\n${r.message}`;
}
