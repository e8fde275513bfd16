// The conversion of the core's Chat Completions messages to the Language Model API's turns, and
// the detection of what the running VS Code offers. The parts are plain classes with the API's
// constructor signatures; the host suite (editor-model.test.ts) runs the same code in VS Code.
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../src/core/events/to-messages';
import { findLmApi, isLmApi, type LmApi } from '../../../src/host/vscode/lm/lm-api';
import { argumentsObject, IMAGE_LEFT_OUT, toLmMessages } from '../../../src/host/vscode/lm/to-lm-messages';

class TextPart {
  constructor(readonly value: string) {}
}
class ToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}
const api: LmApi = {
  selectChatModels: async () => [],
  User: (content) => ({ role: 'user', content }),
  Assistant: (content) => ({ role: 'assistant', content }),
  TextPart,
  ToolCallPart,
  ToolResultPart,
  ErrorClass: undefined,
};

describe('editor models: messages for the Language Model API', () => {
  it('puts the system prompt first as a user turn, tool calls in the assistant turn, results in one user turn', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are Logbook.' },
      { role: 'user', content: 'List and count.' },
      {
        role: 'assistant',
        content: 'Both at once.',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } },
          { id: 'b', type: 'function', function: { name: 'terminal', arguments: '{"command":"wc -l *"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'src\ntest' },
      { role: 'tool', tool_call_id: 'b', content: '42 total' },
      { role: 'assistant', content: 'Two folders, 42 lines.' },
    ];
    assert.deepEqual(toLmMessages(api, messages), [
      { role: 'user', content: [new TextPart('You are Logbook.')] },
      { role: 'user', content: [new TextPart('List and count.')] },
      {
        role: 'assistant',
        content: [
          new TextPart('Both at once.'),
          new ToolCallPart('a', 'terminal', { command: 'ls' }),
          new ToolCallPart('b', 'terminal', { command: 'wc -l *' }),
        ],
      },
      {
        role: 'user',
        content: [
          new ToolResultPart('a', [new TextPart('src\ntest')]),
          new ToolResultPart('b', [new TextPart('42 total')]),
        ],
      },
      { role: 'assistant', content: [new TextPart('Two folders, 42 lines.')] },
    ]);
  });

  it('says where an image was left out, and keeps invalid arguments as their text', () => {
    const [user] = toLmMessages(api, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Why is this red?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    ]) as { content: TextPart[] }[];
    assert.equal(user!.content[0]!.value, `Why is this red?\n\n${IMAGE_LEFT_OUT}`);
    assert.deepEqual(argumentsObject('{"path": "a.ts"'), { invalid_arguments: '{"path": "a.ts"' });
    assert.deepEqual(argumentsObject('[1,2]'), { invalid_arguments: '[1,2]' });
    assert.deepEqual(argumentsObject('{"path":"a.ts"}'), { path: 'a.ts' });
  });

  it('tells which part of the API a VS Code lacks', () => {
    const noLm = findLmApi({ version: '1.89.0' } as never);
    assert.ok(!isLmApi(noLm) && /1\.89\.0 has no Language Model API/.test(noLm.missing));
    const noTools = findLmApi({
      version: '1.93.1',
      lm: { selectChatModels: async () => [] },
      LanguageModelChatMessage: { User: () => ({}), Assistant: () => ({}) },
    } as never);
    assert.ok(!isLmApi(noTools) && /1\.93\.1 has no tool calling/.test(noTools.missing));
    const full = findLmApi({
      version: '1.100.3',
      lm: { selectChatModels: async () => [] },
      LanguageModelChatMessage: { User: () => ({}), Assistant: () => ({}) },
      LanguageModelTextPart: TextPart,
      LanguageModelToolCallPart: ToolCallPart,
      LanguageModelToolResultPart: ToolResultPart,
    } as never);
    assert.ok(isLmApi(full));
  });
});
