// The kind of shell the agent's commands run in is recorded before a request whenever it differs
// from what the log says, so a replay can start the same kind (see state/shell-notice.ts).
import { SHELL_KEY, type ShellNotice } from '../../state';
import type { ConversationPolicy } from './policy';

export function shellPolicy(shell: (() => ShellNotice) | undefined): ConversationPolicy {
  return {
    name: 'shell',
    async beforeRequest({ log, settings }) {
      if (!settings.toolsEnabled || !shell) return 'go';
      const now = shell();
      if (log.state.shell?.startup !== now.startup)
        await log.append('ConversationStateUpdateEvent', { key: SHELL_KEY, value: now });
      return 'go';
    },
  };
}
