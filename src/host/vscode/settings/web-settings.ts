// The `logbook.web.*` settings. Machine-scoped in package.json, like the sandbox's: a repository's
// own settings cannot open the private network to fetches, skip their confirmation, or send the
// agent's searches elsewhere.
import type * as vscode from 'vscode';
import type { WebSearchPort } from '../../../core/tools';
import type { WebRules } from '../../node/web/guarded-fetch';
import { webSearchFrom } from '../../node/session/agent-tools';
import { editorList, editorSetting } from './config';

export function readWebRules(): WebRules {
  return {
    allowPrivateAddresses: editorSetting<boolean>('web.allowPrivateAddresses'),
    allowedHosts: editorList('web.allowedHosts'),
  };
}

/** The search service `logbook.web.searxngUrl` names; none when it is empty or not a usable URL. */
export function readWebSearch(log?: vscode.LogOutputChannel): WebSearchPort | undefined {
  const url = editorSetting<string>('web.searxngUrl', (problem) => log?.warn(problem));
  return webSearchFrom(url, (why) => log?.warn(why));
}
