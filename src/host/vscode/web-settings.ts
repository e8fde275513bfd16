// The `logbook.web.*` settings. Machine-scoped in package.json, like the sandbox's: a repository's
// own settings cannot open the private network to fetches nor skip their confirmation.
import * as vscode from 'vscode';
import type { WebRules } from '../node/web/guarded-fetch';

export function readWebRules(): WebRules {
  const c = vscode.workspace.getConfiguration('logbook');
  const hosts = c.get<unknown>('web.allowedHosts');
  return {
    allowPrivateAddresses: c.get<unknown>('web.allowPrivateAddresses') === true,
    allowedHosts: Array.isArray(hosts)
      ? hosts.filter((h): h is string => typeof h === 'string' && h.trim() !== '')
      : [],
  };
}
