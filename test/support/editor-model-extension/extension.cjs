// A chat model for the host tests, registered through the `chatProvider` proposed API (code-server
// runs it with proposed APIs enabled for extensions under development). Its script: without a tool
// result in the request it calls the terminal tool; with one, it answers with what the tool said.
// Every request it receives is kept, as plain JSON, for the tests to read.
const vscode = require('vscode');

const requests = [];

// Parts are told apart by shape: the classes VS Code builds them from are not always the ones the
// `vscode` module exports.
function partJson(part) {
  if (typeof part?.value === 'string') return { type: 'text', value: part.value };
  if (typeof part?.callId === 'string' && Array.isArray(part.content)) {
    return { type: 'tool_result', callId: part.callId, content: part.content.map(partJson) };
  }
  if (typeof part?.callId === 'string' && typeof part.name === 'string') {
    return { type: 'tool_call', callId: part.callId, name: part.name, input: part.input };
  }
  return { type: 'other', keys: Object.keys(part ?? {}) };
}

function toolResultText(message) {
  const parts = (Array.isArray(message.content) ? message.content : []).map(partJson);
  const result = parts.find((p) => p.type === 'tool_result');
  return result?.content.map((p) => p.value ?? '').join('');
}

exports.activate = (context) => {
  if (typeof vscode.lm?.registerChatModelProvider !== 'function') return;
  const provider = {
    async provideLanguageModelResponse(messages, options, _extensionId, progress) {
      requests.push({
        messages: messages.map((m) => ({
          role: m.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'assistant',
          content: (Array.isArray(m.content)
            ? m.content
            : [new vscode.LanguageModelTextPart(String(m.content))]
          ).map(partJson),
        })),
        tools: (options.tools ?? []).map((t) => t.name),
      });
      const answered = toolResultText(messages[messages.length - 1]);
      if (answered === undefined) {
        progress.report({ index: 0, part: new vscode.LanguageModelTextPart('Running it.') });
        progress.report({
          index: 0,
          part: new vscode.LanguageModelToolCallPart('lm-call-1', 'terminal', {
            command: 'echo from-the-editor-model',
            security_risk: 'LOW',
            summary: 'print a marker',
          }),
        });
      } else {
        progress.report({
          index: 0,
          part: new vscode.LanguageModelTextPart(`The terminal said: ${answered.trim()}`),
        });
      }
    },
    async provideTokenCount(text) {
      const s = typeof text === 'string' ? text : JSON.stringify(text);
      return Math.ceil(s.length / 4);
    },
  };
  context.subscriptions.push(
    vscode.lm.registerChatModelProvider('scripted-editor-model', provider, {
      vendor: 'logbook-test',
      name: 'Scripted Editor Model',
      family: 'scripted',
      version: '1',
      maxInputTokens: 128000,
      maxOutputTokens: 4096,
      isUserSelectable: true,
      capabilities: { toolCalling: true },
    }),
    vscode.commands.registerCommand('logbookTest.editorModelRequests', () =>
      JSON.parse(JSON.stringify(requests)),
    ),
  );
};
