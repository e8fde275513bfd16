// No conversation yet: what Logbook is, and the two ways to begin.
import { send } from '../vscode-api';
import { Button } from './Button';
import { Icon } from './Icon';

export function EmptyState() {
  return (
    <div class="empty">
      <Icon name="history" class="empty-icon" />
      <h2>Give the agent a task</h2>
      <p>Every step it takes is recorded as an event you can review, approve, and continue from.</p>
      <Button icon="play" onClick={() => send({ type: 'startTask' })}>
        Start Agent Task
      </Button>
      <p class="hint">Or type a message below.</p>
    </div>
  );
}
