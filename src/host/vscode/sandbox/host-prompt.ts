// Asks the user whether a sandboxed command may reach a host the allow list does not name. One
// question per host, the answer kept for the conversation. The command waits on its connection
// meanwhile, so an unanswered question is a no after a while (a dismissed one too).
import * as vscode from 'vscode';
import { addAllowedHost } from './sandbox-settings';

/** How long a connection waits for the user before it is turned away. */
export const HOST_ASK_TIMEOUT_MS = 120_000;

export type HostAnswer = 'allow' | 'always' | 'deny';

/** Shows the question; resolves to undefined when dismissed. */
export type AskUser = (host: string) => Thenable<HostAnswer | undefined>;

export function askUserInNotification(host: string): Thenable<HostAnswer | undefined> {
  const allow = vscode.l10n.t('Allow');
  const always = vscode.l10n.t('Always Allow');
  const deny = vscode.l10n.t('Deny');
  return vscode.window
    .showWarningMessage(
      vscode.l10n.t(
        "Logbook: the agent's command wants to reach {0}, which logbook.sandbox.allowedHosts does not list.",
        host,
      ),
      allow,
      always,
      deny,
    )
    .then((choice) =>
      choice === allow ? 'allow' : choice === always ? 'always' : choice === deny ? 'deny' : undefined,
    );
}

export class HostPrompt {
  private readonly answers = new Map<string, Promise<boolean>>();

  constructor(
    private readonly ask: AskUser = askUserInNotification,
    private readonly timeoutMs = HOST_ASK_TIMEOUT_MS,
  ) {}

  /** Whether the host may be reached in this conversation (asked once; later connections reuse it). */
  allows(host: string): Promise<boolean> {
    const key = host.toLowerCase();
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.question(key);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private question(host: string): Promise<boolean> {
    const asked = Promise.resolve(this.ask(host)).then(
      async (answer) => {
        if (answer === 'always') await addAllowedHost(host).catch(() => undefined);
        const yes = answer === 'allow' || answer === 'always';
        // An answer after the wait ran out still counts for the next connections.
        this.answers.set(host, Promise.resolve(yes));
        return yes;
      },
      () => false,
    );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
    });
    return Promise.race([asked, timedOut]).finally(() => clearTimeout(timer));
  }
}
