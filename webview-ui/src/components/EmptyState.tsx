// No conversation yet: what Logbook is, and the ways to begin. While the demo model answers (no
// real model is connected) it says so, offers the demo's tasks as buttons and how to connect one.
import { demoTasks, newConversationMode } from '../state/store';
import { send } from '../vscode-api';
import { Button } from './Button';
import { Icon } from './Icon';

export function EmptyState() {
  const demo = demoTasks.value;
  if (demo.length > 0) {
    const mode = newConversationMode.value;
    return (
      <div class="empty demo">
        <Icon name="beaker" class="empty-icon" />
        <h2>A demo model answers here</h2>
        <p>
          No model is connected yet, so Logbook's demo model follows a script on the sample project. It shows
          every step: the plan, a command to approve, an edit to review.
        </p>
        <div class="demo-tasks" role="group" aria-label="Demo tasks">
          {demo.map((task) => (
            <Button
              key={task}
              kind="secondary"
              icon="play"
              onClick={() => {
                newConversationMode.value = null;
                send({
                  type: 'sendMessage',
                  text: task,
                  attachActiveFile: false,
                  attachSelection: false,
                  ...(mode ? { mode } : {}),
                });
              }}
            >
              {task}
            </Button>
          ))}
        </div>
        <p class="hint">Switch to Plan below to see it plan first and wait for your approval.</p>
        <Button kind="secondary" icon="plug" onClick={() => send({ type: 'selectModel' })}>
          Connect a model…
        </Button>
      </div>
    );
  }
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
