// A Restore files dialog for host tests: always restores, and keeps the preview it was shown and
// every message it got.
import type { RestorePreview, RestoreUi } from '../../../src/host/vscode/checkpoints/restore-files';

export class RestoreAll implements RestoreUi {
  shown: RestorePreview | undefined;
  messages: string[] = [];
  async preview(p: RestorePreview) {
    this.shown = p;
    return 'restore' as const;
  }
  async saveUnsaved() {
    return true;
  }
  done(message: string) {
    this.messages.push(message);
  }
  info(message: string) {
    this.messages.push(message);
  }
}
