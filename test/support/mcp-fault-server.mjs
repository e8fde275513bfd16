#!/usr/bin/env node
// A small MCP server (stdio) whose tools misbehave on purpose, for the tests of how Logbook copes:
//   crash      exits in the middle of the call
//   hang       never answers
//   malformed  answers with a result that is not a tools/call result
//   huge       answers with HUGE_BYTES (default 10 MiB) of text
//   plain      answers normally and has no annotations (so its risk is unknown to the rules)
//   shout      read-only, returns its argument in capitals and a tiny image
// `--fail-start` exits before the handshake, with a message on stderr.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

if (process.argv.includes('--fail-start')) {
  process.stderr.write('fault server: refusing to start (--fail-start)\n');
  process.exit(3);
}

const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const object = (properties = {}, required = []) => ({ type: 'object', properties, required });

const tools = [
  {
    name: 'crash',
    description: 'Exits mid-call.',
    inputSchema: object(),
    annotations: { readOnlyHint: true },
  },
  { name: 'hang', description: 'Never answers.', inputSchema: object(), annotations: { readOnlyHint: true } },
  {
    name: 'malformed',
    description: 'Answers nonsense.',
    inputSchema: object(),
    annotations: { readOnlyHint: true },
  },
  {
    name: 'huge',
    description: 'Answers a lot of text.',
    inputSchema: object(),
    annotations: { readOnlyHint: true },
  },
  {
    name: 'plain',
    description: 'Writes a note somewhere.',
    inputSchema: object({ note: { type: 'string' } }, ['note']),
  },
  {
    name: 'shout',
    description: 'Returns the text in capitals.',
    inputSchema: object({ text: { type: 'string' } }, ['text']),
    annotations: { readOnlyHint: true },
  },
];

const server = new Server({ name: 'fault-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case 'crash':
      process.stderr.write('fault server: crashing on purpose\n');
      setTimeout(() => process.exit(7), 10);
      return new Promise(() => {});
    case 'hang':
      return new Promise(() => {});
    case 'malformed':
      return { content: 'not a list', isError: 'perhaps' };
    case 'huge':
      return {
        content: [{ type: 'text', text: 'x'.repeat(Number(process.env.HUGE_BYTES ?? 10 * 1024 * 1024)) }],
      };
    case 'plain':
      return { content: [{ type: 'text', text: `noted: ${String(args.note)}` }] };
    case 'shout':
      return {
        content: [
          { type: 'text', text: String(args.text).toUpperCase() },
          { type: 'image', data: PIXEL, mimeType: 'image/png' },
        ],
      };
    default:
      return { content: [{ type: 'text', text: `no tool ${request.params.name}` }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
