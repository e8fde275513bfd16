// The boundary the agent's commands run in (the host's sandbox) is recorded before a request
// whenever it differs from what the log says, so the user is told once and the log says it.
import { SANDBOX_KEY, type SandboxNotice, sandboxNoticeChanged } from '../../state';
import type { ConversationPolicy } from './policy';

export function sandboxPolicy(sandbox: (() => SandboxNotice) | undefined): ConversationPolicy {
  return {
    name: 'sandbox',
    async beforeRequest({ log, settings }) {
      // Only where tools run at all.
      if (!settings.toolsEnabled || !sandbox) return 'go';
      const now = sandbox();
      if (sandboxNoticeChanged(log.state.sandbox, now))
        await log.append('ConversationStateUpdateEvent', { key: SANDBOX_KEY, value: now });
      return 'go';
    },
  };
}
