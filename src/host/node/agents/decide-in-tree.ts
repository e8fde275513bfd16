// The user's decision on what a delegated agent waits on, at any depth: a child that waits only
// because one of its own children does passes the decision down, to the agent whose action waits.
// Each agent on the way is opened for it (and closed again as its host closes children); the
// parent's next run then carries the answer up the chain.
import type { Conversation } from '../../../core/agent/conversation';
import { agentTree } from '../../../core/agents/agent-tree';
import type { NodeChildRunner } from './child-runner';

/**
 * Applies `decide` to each agent below `parent` that has not ended, deepest last: a child that
 * takes it stops the descent there. Whether any agent took it.
 */
export async function decideInTree(
  parent: Conversation,
  runner: NodeChildRunner,
  decide: (agent: Conversation) => Promise<boolean>,
): Promise<boolean> {
  let any = false;
  for (const link of agentTree(await parent.events()).children.filter((c) => c.end === null)) {
    const took = await runner.decide(
      link,
      async (child) => (await decide(child)) || decideInTree(child, runner.below(link, child), decide),
    );
    if (took) any = true;
  }
  return any;
}
