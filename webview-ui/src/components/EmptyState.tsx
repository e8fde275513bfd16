// No conversation yet: what Logbook is, and the ways to begin. While the demo model answers (no
// real model is connected) it says so, offers the demo's tasks as buttons and how to connect one.
import { demoTasks, newConversationMode } from '../state/store';
import { send } from '../vscode-api';
import { Button } from './Button';
import { Icon } from './Icon';
import { t } from '../lib/text';

export function EmptyState() {
  const demo = demoTasks.value;
  if (demo.length > 0) {
    const mode = newConversationMode.value;
    return (
      <div class="empty demo">
        <Icon name="beaker" class="empty-icon" />
        <h2>{t('demoTitle')}</h2>
        <p>{t('demoBody')}</p>
        <div class="demo-tasks" role="group" aria-label={t('demoTasks')}>
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
        <p class="hint">{t('demoPlanHint')}</p>
        <Button kind="secondary" icon="plug" onClick={() => send({ type: 'selectModel' })}>
          {t('connectModel')}
        </Button>
      </div>
    );
  }
  return (
    <div class="empty">
      <Icon name="history" class="empty-icon" />
      <h2>{t('emptyTitle')}</h2>
      <p>{t('emptyBody')}</p>
      <Button icon="play" onClick={() => send({ type: 'startTask' })}>
        {t('startTask')}
      </Button>
      <p class="hint">{t('emptyHint')}</p>
      {/* The model picker: in a conversation it is the model's name in the header. */}
      <Button kind="secondary" icon="sparkle" onClick={() => send({ type: 'selectModel' })}>
        {t('chooseModel')}
      </Button>
    </div>
  );
}
