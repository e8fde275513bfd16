// The chat's fixed words, in English. The host gives the webview their translations (from the
// extension's l10n bundle, keyed by these English strings) in the document it serves, so the webview
// renders them without knowing any language. `{0}`-style holes are filled by the webview.
export const WEBVIEW_TEXT = {
  approvalNeeded: 'Approval needed',
  allowThisAction: 'Allow this action?',
  allowTheseActions: 'Allow these {0} actions?',
  alwaysAllowLike: 'Always allow commands like: {0}',
  alwaysAllow: 'Always allow…',
  rejectReason: 'Reason for rejecting (optional, sent to the agent)',
  rejectReasonExample: 'e.g. Run the unit tests only',
  reject: 'Reject',
  rejectEllipsis: 'Reject…',
  alwaysAllowPrefix: 'Always allow commands starting with',
  allowAndRun: 'Allow and run',
  confirm: 'Confirm',
  demoTitle: 'A demo model answers here',
  demoBody:
    "No model is connected yet, so Logbook's demo model follows a script on the sample project. It shows every step: the plan, a command to approve, an edit to review.",
  demoTasks: 'Demo tasks',
  demoPlanHint: 'Switch to Plan below to see it plan first and wait for your approval.',
  connectModel: 'Connect a model…',
  emptyTitle: 'Give the agent a task',
  emptyBody: 'Every step it takes is recorded as an event you can review, approve, and continue from.',
  startTask: 'Start Agent Task',
  emptyHint: 'Or type a message below.',
  planMode: 'Plan',
  planModeTitle: 'Plan mode: the agent only reads and answers with a plan for you to approve',
  actMode: 'Act',
  actModeTitle: 'Act mode: the agent may change files and run commands',
  dropOnlyImages: 'Only images can be dropped from outside the editor; drop files from the Explorer.',
  messageLabel: 'Message to the agent',
  readOnlyPlaceholder: 'This conversation is read-only',
  planPlaceholder: 'What to plan (the agent only reads)… @ to attach',
  askPlaceholder: 'Ask Logbook… type @ to attach',
  agentMode: 'Agent mode',
  attachFileLabel: 'Attach the active file',
  attachFileTitle: 'Attach the active file to the message',
  attachFile: 'File',
  attachSelectionLabel: 'Attach the selection',
  attachSelectionTitle: "Attach the editor's selection to the message",
  attachSelection: 'Selection',
  attached: '{0} attached',
  send: 'Send (Enter)',
  statusIdle: 'Idle',
  statusRunning: 'Running',
  statusPaused: 'Paused',
  statusWaiting: 'Waiting for approval',
  statusFinished: 'Finished',
  statusError: 'Error',
  statusStuck: 'Stuck',
  planAwaitsApproval: 'Plan awaits approval',
  openInEditor: 'Open in Editor',
  untitled: 'Untitled conversation',
  resume: 'Resume',
  pause: 'Pause',
  stop: 'Stop',
  readOnly: 'Read-only',
} as const;

export type WebviewTextKey = keyof typeof WEBVIEW_TEXT;
export type WebviewText = Record<WebviewTextKey, string>;

/**
 * The words the document carries, read defensively: a missing or odd entry falls back to English
 * (the document is the host's own, but a half-translated bundle must not blank a button).
 */
export function readWebviewText(json: string | undefined): WebviewText {
  let given: Record<string, unknown> = {};
  try {
    const parsed: unknown = json ? JSON.parse(json) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      given = parsed as Record<string, unknown>;
  } catch {
    // English, then.
  }
  const out = { ...WEBVIEW_TEXT } as WebviewText;
  for (const key of Object.keys(WEBVIEW_TEXT) as WebviewTextKey[]) {
    const value = given[key];
    if (typeof value === 'string' && value.trim() && value.length <= 1000) out[key] = value;
  }
  return out;
}

/** `{0}`, `{1}`… replaced by the arguments, in any order the translation puts them. */
export function fillText(text: string, ...args: (string | number)[]): string {
  return text.replace(/\{(\d+)\}/g, (hole, i: string) => (args[Number(i)] ?? hole).toString());
}
