// A small ACP agent for tests of `logbook run --agent`. Each prompt's text is JSON naming what to
// ask of the client: {"read": {"path", "line", "limit"}} sends fs/read_text_file; {"write":
// {"path", "content"}} sends fs/write_text_file; {"ask": {"title",
// "command"}} sends session/request_permission for its own shell tool; {"touch": "path"} writes a file itself (with its own rights,
// which the sandbox bounds); {"wait": true} waits for session/cancel;
// {"echo": true} says the whole prompt it got; {"silent": true} says nothing until the client cancels the turn;
// {"env": "NAME"} says the variable's value; {"run": {"command", "args", "cwd", "env",
// "outputByteLimit"}} runs a command through terminal/create, waits for it, reads its output and
// releases it ({"runs": [...]}: several, one after another); {"poll": {...}} runs one the same way
// but reads its output every 100 ms while it runs, and says what it read before the exit;
// {"terminalCapability": true} says whether the client offered terminals. It says what came back as its message, then ends the turn.
const { writeFileSync } = require('node:fs');
const { Readable, Writable } = require('node:stream');
const { agent, ndJsonStream } = require('@agentclientprotocol/sdk');

let cancelled = () => undefined;
let offered;
const app = agent({ name: 'write-agent' })
  .onNotification('session/cancel', () => cancelled())
  .onRequest('initialize', ({ params }) => {
    offered = params.clientCapabilities;
    return { protocolVersion: params.protocolVersion, agentCapabilities: {}, authMethods: [] };
  })
  .onRequest('session/new', () => ({ sessionId: 'write-agent-session' }))
  .onRequest('session/prompt', async ({ params, client }) => {
    const text = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const say = (t) =>
      client.notify('session/update', {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } },
      });
    // The last task given (an unanswered one before it may share the prompt).
    const last = text.lastIndexOf('\n{');
    const asked = JSON.parse(text.slice(last >= 0 ? last + 1 : text.indexOf('{')));
    let said;
    try {
      if (asked.echo) {
        said = `prompt: ${text}`;
      } else if (asked.env) {
        said = `env: ${process.env[asked.env]}`;
      } else if (asked.silent) {
        await new Promise((resolve) => (cancelled = resolve));
        return { stopReason: 'cancelled' };
      } else if (asked.wait) {
        // Says it started, then waits until the client cancels the turn.
        await say('waiting');
        await new Promise((resolve) => (cancelled = resolve));
        return { stopReason: 'cancelled' };
      } else if (asked.read) {
        const res = await client.request('fs/read_text_file', { sessionId: params.sessionId, ...asked.read });
        said = `read: ${res.content}`;
      } else if (asked.write) {
        await client.request('fs/write_text_file', { sessionId: params.sessionId, ...asked.write });
        said = 'write: done';
      } else if (asked.ask) {
        const res = await client.request('session/request_permission', {
          sessionId: params.sessionId,
          toolCall: {
            toolCallId: 'own-1',
            title: asked.ask.title,
            kind: 'execute',
            status: 'pending',
            ...(asked.ask.command ? { rawInput: { command: asked.ask.command } } : {}),
          },
          options: [
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
        });
        said = `permission: ${res.outcome.outcome === 'selected' ? res.outcome.optionId : 'cancelled'}`;
      } else if (asked.terminalCapability) {
        said = `terminal capability: ${Boolean(offered && offered.terminal)}`;
      } else if (asked.run || asked.runs) {
        const heard = [];
        for (const run of asked.runs || [asked.run]) {
          const { terminalId } = await client.request('terminal/create', {
            sessionId: params.sessionId,
            ...run,
          });
          const exit = await client.request('terminal/wait_for_exit', {
            sessionId: params.sessionId,
            terminalId,
          });
          const out = await client.request('terminal/output', { sessionId: params.sessionId, terminalId });
          await client.request('terminal/release', { sessionId: params.sessionId, terminalId });
          heard.push(`terminal: exit ${exit.exitCode} truncated ${out.truncated} output: ${out.output}`);
        }
        said = heard.join(' | ');
      } else if (asked.poll) {
        const sessionId = params.sessionId;
        const { terminalId } = await client.request('terminal/create', { sessionId, ...asked.poll });
        let seen = '';
        for (;;) {
          const out = await client.request('terminal/output', { sessionId, terminalId });
          if (out.exitStatus) break;
          // The first output read while it runs: a later read may catch the last line just before the exit.
          if (out.output && !seen) seen = out.output;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const exit = await client.request('terminal/wait_for_exit', { sessionId, terminalId });
        const out = await client.request('terminal/output', { sessionId, terminalId });
        await client.request('terminal/release', { sessionId, terminalId });
        said = `poll: while running [${seen.trim()}] exit ${exit.exitCode} output: ${out.output}`;
      } else if (asked.touch) {
        writeFileSync(asked.touch, 'written by the agent itself\n');
        said = 'touch: done';
      }
    } catch (err) {
      said = `refused: ${err && err.message ? err.message : String(err)}`;
    }
    await say(said);
    return { stopReason: 'end_turn' };
  });

const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
connection.closed.then(() => process.exit(0));
