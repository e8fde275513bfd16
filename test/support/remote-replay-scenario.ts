// The scripted turns both replay tests record against the real agent-server: an edit of a.txt in
// the server's folder, a command reading it, then finish (a replay must reproduce both results).
import { join } from 'node:path';
import type { Scenario } from './llm-server';

export function remoteEditAndCommand(remoteDir: string, name: string): Scenario {
  return {
    name,
    turns: [
      {
        match: { hasTools: true, lastRole: 'user' },
        reply: {
          toolCalls: [
            {
              id: 'call_edit',
              name: 'file_editor',
              arguments: {
                command: 'str_replace',
                path: join(remoteDir, 'a.txt'),
                old_str: 'one\n',
                new_str: 'ONE\n',
                security_risk: 'LOW',
                summary: 'edit a.txt',
              },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: {
          toolCalls: [
            {
              id: 'call_cat',
              name: 'terminal',
              arguments: { command: 'cat a.txt b.txt; ls', security_risk: 'LOW', summary: 'read them' },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
      },
    ],
  };
}
