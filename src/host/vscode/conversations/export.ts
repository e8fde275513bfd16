// Export Conversation: the log as OpenHands-style JSON (one event per array item) or as a
// readable Markdown transcript. Events are redacted as they are appended; the export is redacted
// again, for conversations recorded before that.
import * as vscode from 'vscode';
import { observationText, ObservationRefResolver, textOf, type Event } from '../../../core/events';
import { forgottenCount, ForgottenRangeLister } from '../../../core/context';
import { SecretRedactor } from '../../../core/secrets';
import type { ConversationSession } from './conversation-session';
import { ImageStore } from '../../../core/attachments/image-store';
import { inlineImages } from '../../../core/attachments/inline-images';

export type ExportFormat = 'json' | 'markdown';

export async function exportConversation(
  session: ConversationSession,
  formatArg?: unknown,
  targetArg?: unknown,
): Promise<string | undefined> {
  let format: ExportFormat | undefined =
    formatArg === 'json' || formatArg === 'markdown' ? formatArg : undefined;
  if (!format) {
    const pick = await vscode.window.showQuickPick(
      [
        {
          label: 'JSON',
          description: vscode.l10n.t('every event, as the OpenHands SDK writes it'),
          format: 'json' as const,
        },
        {
          label: 'Markdown',
          description: vscode.l10n.t('a readable transcript'),
          format: 'markdown' as const,
        },
      ],
      { title: vscode.l10n.t('Logbook: Export Conversation') },
    );
    format = pick?.format;
  }
  if (!format) return undefined;
  // JSON: each event as the OpenHands SDK persists it (core/events/openhands-sdk-export.ts);
  // Markdown: as logged, with an observation that refers to its action's text given it back.
  const { SdkExporter } = await import('../../../core/agent/openhands-files');
  const sdk = new SdkExporter();
  const ranges = new ForgottenRangeLister();
  const refs = new ObservationRefResolver();
  const images = new ImageStore(session.dir);
  const events: Event[] = [];
  for (const e of await session.conversation.events()) {
    if (format === 'markdown') {
      events.push(refs.resolve(e));
      continue;
    }
    // The JSON stands alone: stored images go inline as data URLs, as OpenHands expects them.
    for (const out of sdk.convert(ranges.list(e)))
      events.push(await inlineImages(out, (url) => images.dataUrl(url)));
  }
  const redactor = new SecretRedactor(session.secrets);
  const redacted = events.map((e) => redactor.redactValue(e));
  const text =
    format === 'json'
      ? `${JSON.stringify(redacted, null, 2)}\n`
      : toMarkdown(redactor.redactText(session.header().title), redacted);
  let target = typeof targetArg === 'string' ? vscode.Uri.file(targetArg) : undefined;
  if (!target) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    target = await vscode.window.showSaveDialog({
      ...(folder
        ? {
            defaultUri: vscode.Uri.joinPath(
              folder,
              `conversation-${session.id.slice(0, 8)}.${format === 'json' ? 'json' : 'md'}`,
            ),
          }
        : {}),
      filters: format === 'json' ? { JSON: ['json'] } : { Markdown: ['md'] },
    });
  }
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
  return target.fsPath;
}

export function toMarkdown(title: string, events: readonly Event[]): string {
  const out = [`# ${title}`, ''];
  for (const e of events) {
    switch (e.kind) {
      case 'MessageEvent':
        out.push(`**${e.source === 'user' ? 'User' : 'Agent'}:** ${textOf(e.llm_message.content)}`, '');
        break;
      case 'ActionEvent': {
        const thought = textOf(e.thought);
        if (thought) out.push(`_${thought}_`, '');
        out.push(
          `**Action** \`${e.tool_name}\`${e.summary ? ` — ${e.summary}` : ''} (risk ${e.security_risk ?? 'UNKNOWN'})`,
        );
        out.push('```json', e.tool_call.arguments, '```', '');
        break;
      }
      case 'ObservationEvent':
        out.push(
          `**Result** of \`${e.tool_name}\`:`,
          '```',
          observationText(e.observation).slice(0, 4000),
          '```',
          '',
        );
        break;
      case 'UserRejectObservation':
        out.push(`**Rejected by the user:** ${e.rejection_reason}`, '');
        break;
      case 'AgentErrorEvent':
        out.push(`**Error** (${e.tool_name}): ${e.error}`, '');
        break;
      case 'ConversationErrorEvent':
        out.push(`**Conversation error** \`${e.code}\`: ${e.detail}`, '');
        break;
      case 'Condensation':
        out.push(`_${forgottenCount(e)} earlier events summarized${e.summary ? `: ${e.summary}` : ''}_`, '');
        break;
      case 'PauseEvent':
        out.push('_Paused._', '');
        break;
      default:
        break;
    }
  }
  return out.join('\n');
}
