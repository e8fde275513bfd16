// A parent that delegates one read to the built-in explorer, used by the host and end-to-end tests
// of sub-agents: the explorer (the same scripted model) reads /etc/hostname, a path outside the
// workspace the rules rate MEDIUM, so it waits for the user; then it finishes and the parent answers.
import type { Turn } from '../llm-server/scenario';

export const EXPLORER_TASK = 'Read /etc/hostname and report it.';
export const PARENT_ANSWER = 'The explorer found it.';

export function delegateToExplorerTurns(): Turn[] {
  return [
    {
      match: { lastRole: 'user', lastContentIncludes: 'host name' },
      reply: {
        toolCalls: [
          {
            id: 'call_delegate',
            name: 'delegate',
            arguments: {
              command: 'delegate',
              ids: ['host'],
              agent_types: ['explore'],
              tasks: { host: EXPLORER_TASK },
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'user', lastContentIncludes: 'Read /etc/hostname' },
      reply: {
        toolCalls: [
          {
            id: 'call_view',
            name: 'file_editor',
            arguments: {
              command: 'view',
              path: '/etc/hostname',
              security_risk: 'LOW',
              summary: 'Read the host name',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: {
        toolCalls: [{ id: 'call_fin', name: 'finish', arguments: { message: 'The host name was read.' } }],
      },
    },
    {
      match: { lastRole: 'tool', toolResultIncludes: 'The host name was read.' },
      reply: { content: PARENT_ANSWER },
    },
  ];
}
