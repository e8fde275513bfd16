// The scripted model's shortest working turn: one terminal command, then finish.
import type { Scenario } from './llm-server';

export function commandThenFinish(
  name: string,
  command: string,
  summary: string,
  message = 'Done.',
): Scenario {
  return {
    name,
    turns: [
      {
        match: { hasTools: true, lastRole: 'user' },
        reply: {
          toolCalls: [
            { id: 'call_command', name: 'terminal', arguments: { command, security_risk: 'LOW', summary } },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message } }] },
      },
    ],
  };
}
