#!/usr/bin/env node
// A small MCP server (stdio) that reports what it can see and do, for the tests of the sandbox
// MCP servers start in:
//   write_file    writes `text` to `path`; says "wrote" or why it could not
//   surroundings  the process ids under /proc, the environment, the working folder, its seccomp mode
//   fetch         a GET of an http:// `url` through the proxy HTTP_PROXY names; status and body
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const object = (properties = {}, required = []) => ({ type: 'object', properties, required });
const tools = [
  {
    name: 'write_file',
    description: 'Writes text to a file.',
    inputSchema: object({ path: { type: 'string' }, text: { type: 'string' } }, ['path', 'text']),
  },
  { name: 'surroundings', description: 'Process ids, environment, folder.', inputSchema: object() },
  {
    name: 'fetch',
    description: 'GET of an http:// URL through the proxy.',
    inputSchema: object({ url: { type: 'string' } }, ['url']),
  },
];

const text = (value) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

function writeFile({ path, text: body }) {
  try {
    writeFileSync(String(path), String(body));
    return 'wrote';
  } catch (err) {
    return `failed: ${err.code ?? err.message}`;
  }
}

function surroundings() {
  const pids = readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
  const seccomp = /^Seccomp:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return { pids, env: process.env, cwd: process.cwd(), pid: process.pid, seccomp };
}

/** Node's http ignores HTTP_PROXY: ask the proxy itself, with the absolute URL as the path. */
function fetchThroughProxy({ url }) {
  const proxy = process.env.HTTP_PROXY;
  if (!proxy) return Promise.resolve('failed: no HTTP_PROXY');
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve) => {
    const req = http.get({ host: hostname, port: Number(port), path: String(url) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(`${res.statusCode} ${body}`));
    });
    req.on('error', (err) => resolve(`failed: ${err.code ?? err.message}`));
  });
}

const server = new Server({ name: 'probe-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case 'write_file':
      return text(writeFile(args));
    case 'surroundings':
      return text(surroundings());
    case 'fetch':
      return text(await fetchThroughProxy(args));
    default:
      return { content: [{ type: 'text', text: `no tool ${request.params.name}` }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
