// The `logbook.web.*` settings. Machine-scoped in package.json, like the sandbox's: a repository's
// own settings cannot open the private network to fetches nor skip their confirmation.
import type { WebRules } from '../node/web/guarded-fetch';
import { editorList, editorSetting } from './config';

export function readWebRules(): WebRules {
  return {
    allowPrivateAddresses: editorSetting<boolean>('web.allowPrivateAddresses'),
    allowedHosts: editorList('web.allowedHosts'),
  };
}
