// Compares a request with a turn's `match` and says, in words, every way it differs.
import { type ChatRequestView, describeToolChoice, messageText } from './chat-request';
import { type TurnMatch } from './scenario';

const QUOTE_LIMIT = 160;

/** Empty when the request satisfies every condition of the match. */
export function describeMismatches(match: TurnMatch | undefined, request: ChatRequestView): string[] {
  if (!match) return [];
  const problems: string[] = [];
  const last = request.messages.at(-1);
  const lastText = messageText(last?.content);

  if (match.model !== undefined && match.model !== request.model) {
    problems.push(`model: expected ${quote(match.model)}, got ${quote(request.model)}`);
  }
  if (match.lastRole !== undefined && match.lastRole !== last?.role) {
    problems.push(`lastRole: expected ${quote(match.lastRole)}, got ${quote(last?.role ?? '(none)')}`);
  }
  if (match.lastContentIncludes !== undefined && !lastText.includes(match.lastContentIncludes)) {
    problems.push(
      `lastContentIncludes: ${quote(match.lastContentIncludes)} not found in the last message ${quote(lastText)}`,
    );
  }
  if (match.toolResultIncludes !== undefined) {
    const results = toolResultsSinceLastAssistant(request);
    if (!results.some((text) => text.includes(match.toolResultIncludes as string))) {
      const seen = results.length
        ? results.map(quote).join(', ')
        : 'no tool messages after the last assistant';
      problems.push(`toolResultIncludes: ${quote(match.toolResultIncludes)} not found in ${seen}`);
    }
  }
  if (match.hasTools !== undefined) {
    const hasTools = (request.tools?.length ?? 0) > 0;
    if (hasTools !== match.hasTools) {
      problems.push(
        `hasTools: expected ${match.hasTools}, got ${hasTools} (${request.tools?.length ?? 0} tools)`,
      );
    }
  }
  if (match.toolChoice !== undefined) {
    const toolChoice = describeToolChoice(request.toolChoice);
    if (toolChoice !== match.toolChoice) {
      problems.push(`toolChoice: expected ${quote(match.toolChoice)}, got ${quote(toolChoice)}`);
    }
  }
  return problems;
}

function toolResultsSinceLastAssistant(request: ChatRequestView): string[] {
  const results: string[] = [];
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (!message || message.role === 'assistant') break;
    if (message.role === 'tool') results.unshift(messageText(message.content));
  }
  return results;
}

/** Quoted and shortened, so an error stays readable when a message is a whole file. */
export function quote(text: string): string {
  const short = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…(${text.length} chars)` : text;
  return JSON.stringify(short);
}
