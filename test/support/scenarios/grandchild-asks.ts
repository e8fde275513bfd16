// A parent that delegates to a `lead` agent (a workspace definition that may delegate, and read, so
// it can hand reading on), which hands a read to the built-in explorer: the grandchild's read of
// /etc/hostname, outside the workspace, waits for the user, who rejects it once and confirms it the
// second time; then the explorer, the lead and the parent finish in turn. Used by the host tests of
// a grandchild's questions.
import type { Turn } from '../llm-server/scenario';

export const LEAD_DEFINITION =
  '---\nname: lead\ndescription: Splits work among agents.\ntools: [delegate, file_editor, glob, grep, think]\n---\nSplit the work.\n';
export const LEAD_TASK = 'Split the host name lookup.';
export const GRANDCHILD_TASK = 'Read /etc/hostname and report it.';
export const REJECT_REASON = 'Not yet, ask again';

const view = (id: string) => ({
  toolCalls: [
    {
      id,
      name: 'file_editor',
      arguments: {
        command: 'view',
        path: '/etc/hostname',
        security_risk: 'LOW',
        summary: 'Read the host name',
      },
    },
  ],
});

/** The parent hands `LEAD_TASK` to the lead, which hands `GRANDCHILD_TASK` to an explorer. */
export function delegateThroughLead(userText: string): Turn[] {
  return [
    {
      match: { lastRole: 'user', lastContentIncludes: userText },
      reply: {
        toolCalls: [
          {
            id: 'call_lead',
            name: 'delegate',
            arguments: { command: 'delegate', ids: ['lead'], tasks: { lead: LEAD_TASK } },
          },
        ],
      },
    },
    {
      match: { lastRole: 'user', lastContentIncludes: LEAD_TASK },
      reply: {
        toolCalls: [
          {
            id: 'call_explore',
            name: 'delegate',
            arguments: {
              command: 'delegate',
              ids: ['host'],
              agent_types: ['explore'],
              tasks: { host: GRANDCHILD_TASK },
            },
          },
        ],
      },
    },
  ];
}

export function grandchildAsksTurns(): Turn[] {
  return [
    ...delegateThroughLead('host name, through the lead'),
    { match: { lastRole: 'user', lastContentIncludes: GRANDCHILD_TASK }, reply: view('call_view_1') },
    { match: { lastRole: 'tool', toolResultIncludes: REJECT_REASON }, reply: view('call_view_2') },
    {
      match: { lastRole: 'tool' },
      reply: {
        toolCalls: [{ id: 'call_g_fin', name: 'finish', arguments: { message: 'The host name was read.' } }],
      },
    },
    {
      match: { lastRole: 'tool', toolResultIncludes: 'The host name was read.' },
      reply: {
        toolCalls: [
          { id: 'call_l_fin', name: 'finish', arguments: { message: 'Lead: the explorer read it.' } },
        ],
      },
    },
    {
      match: { lastRole: 'tool', toolResultIncludes: 'Lead: the explorer read it.' },
      reply: { content: 'Done.' },
    },
  ];
}
