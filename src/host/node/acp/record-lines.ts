// How the CLI prints what an external ACP agent did that is not a reply (external-agent.ts records
// it as ConversationStateUpdateEvents with the ACP payload as it came).
export const ACP_TOOL_CALL_KEY = 'acp_tool_call';
export const ACP_ERROR_KEY = 'acp_error';

export function acpRecordLine(key: string, value: unknown): string | undefined {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  if (key === ACP_TOOL_CALL_KEY) {
    const title = typeof v?.['title'] === 'string' ? v['title'] : String(v?.['toolCallId'] ?? '?');
    const status = typeof v?.['status'] === 'string' ? ` (${v['status']})` : '';
    return `[agent tool] ${title}${status}`;
  }
  if (key === ACP_ERROR_KEY) return `[error] ${String(v?.['message'] ?? value)}`;
  return undefined;
}
