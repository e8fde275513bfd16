// The `logbook.web.*` settings. Machine-scoped in package.json, like the sandbox's: a repository's
// own settings cannot open the private network to fetches, skip their confirmation, or send the
// agent's searches elsewhere.
import * as vscode from 'vscode';
import type { WebSearchPort } from '../../core/tools';
import type { WebRules } from '../node/web/guarded-fetch';
import { SearxngSearch } from '../node/web/searxng';

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

/** The search service `logbook.web.searxngUrl` names; none when it is empty or not a usable URL. */
export function readWebSearch(log?: vscode.LogOutputChannel): WebSearchPort | undefined {
  const url = vscode.workspace.getConfiguration('logbook').get<unknown>('web.searxngUrl');
  if (typeof url !== 'string' || url.trim() === '') return undefined;
  try {
    return new SearxngSearch(url.trim());
  } catch (err) {
    log?.warn(`No web_search tool: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
