// Mentions in the real extension host: a file, the problems of a file (a diagnostic set through
// VS Code's own API), the last terminal command's output (shell integration) and a pasted image are
// read when the message is sent, recorded in the MessageEvent, and reach the scripted model's server.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import type { Attachment } from '../../../src/protocol/messages';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

type Body = { messages: { role: string; content: unknown }[] };

describe('mentions: attachments read on the host', function () {
  this.timeout(60_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.workspace
      .getConfiguration('logbook')
      .update('llm.supportsImages', undefined, vscode.ConfigurationTarget.Global);
  });

  /** Sends one message with attachments in a new conversation; resolves to the request the model got. */
  async function send(text: string, mentions: Attachment[]): Promise<{ body: Body; id: string }> {
    llm = await scriptedModel({ name: 'mentions', turns: [{ reply: { content: 'Noted.' } }] });
    const { service } = await logbook();
    const s = await service.create();
    await service.setActive(s.id);
    await service.sendMessage(text, { mentions });
    assert.equal(await s.settled(), 'finished', s.conversation.state.lastError?.message);
    const body = llm.completionBodies()[0] as Body;
    assert.ok(body, 'the model was asked');
    return { body, id: s.id };
  }
  const lastUser = (body: Body) => body.messages.filter((m) => m.role === 'user').at(-1)!.content;

  it('a mentioned file reaches the model with a header and its text, and the log records the same', async () => {
    const { body, id } = await send('Explain @src/math.js', [{ kind: 'file', path: 'src/math.js' }]);
    const source = readFileSync(join(workspaceRoot(), 'src', 'math.js'), 'utf8');
    const content = lastUser(body);
    assert.equal(typeof content, 'string');
    assert.ok(
      (content as string).startsWith('Explain @src/math.js\n--- Attached file src/math.js ('),
      String(content),
    );
    assert.ok((content as string).includes(`\`\`\`js\n${source}`), 'the file text, fenced');
    const { service } = await logbook();
    const message = (await (await service.session(id)).conversation.events()).find(
      (e) => e.kind === 'MessageEvent',
    );
    assert.ok(message?.kind === 'MessageEvent');
    assert.equal(message.llm_message.content.length, 2, 'the text, then the attachment as its own part');
    assert.match(
      message.llm_message.content[1]!.type === 'text' ? message.llm_message.content[1]!.text : '',
      /^--- Attached file src\/math\.js/,
    );
  });

  it('the problems of a file come with their ranges, severity and source', async () => {
    const uri = vscode.Uri.file(join(workspaceRoot(), 'src', 'math.js'));
    const collection = vscode.languages.createDiagnosticCollection('mentions-test');
    try {
      const d = new vscode.Diagnostic(
        new vscode.Range(2, 4, 2, 9),
        "'total' is never read",
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'demo-lint';
      d.code = 'no-unused';
      collection.set(uri, [d, new vscode.Diagnostic(new vscode.Range(0, 0, 0, 8), 'Missing semicolon')]);
      const { service } = await logbook();
      const offered = await service.mentionCandidates('prob');
      assert.ok(
        offered.some((i) => i.kind === 'problems' && i.path === 'src/math.js'),
        JSON.stringify(offered),
      );
      const { body } = await send('Fix #problems', [{ kind: 'problems', path: 'src/math.js' }]);
      const content = String(lastUser(body));
      assert.match(content, /--- Attached problems in src\/math\.js \(2 problems\) ---/);
      assert.match(content, /src\/math\.js:1:1-1:9 error: Missing semicolon/);
      assert.match(content, /src\/math\.js:3:5-3:10 warning: 'total' is never read \[demo-lint no-unused\]/);
    } finally {
      collection.dispose();
    }
  });

  it("the last terminal command's output comes from shell integration", async () => {
    const terminal = vscode.window.createTerminal({ name: 'mentions shell', cwd: workspaceRoot() });
    try {
      terminal.show();
      const integration =
        terminal.shellIntegration ??
        (await new Promise<vscode.TerminalShellIntegration>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no shell integration within 15 s')), 15_000);
          const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
            if (e.terminal !== terminal) return;
            clearTimeout(timer);
            sub.dispose();
            resolve(e.shellIntegration);
          });
        }));
      const ended = new Promise<void>((resolve) => {
        const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
          if (e.terminal !== terminal) return;
          sub.dispose();
          resolve();
        });
      });
      // VS Code forwards a command's output only once an extension reads it (asked for at the start
      // event, a round trip away), so the first output comes a moment after the command starts.
      integration.executeCommand("sleep 1; echo mention-marker-$((40+2)); sh -c 'exit 3'");
      await ended;
      await new Promise((r) => setTimeout(r, 300)); // the output's last chunk
      const { body } = await send('Why did it fail?', [{ kind: 'terminal' }]);
      const content = String(lastUser(body));
      assert.match(
        content,
        /--- Attached output of `sleep 1; echo mention-marker-\$\(\(40\+2\)\); sh -c 'exit 3'` in terminal "mentions shell" \(exit code 3\) ---/,
      );
      assert.match(content, /mention-marker-42/);
    } finally {
      terminal.dispose();
    }
  });

  it('a pasted image is stored once in the conversation and reaches the model as image content', async () => {
    const { body, id } = await send('What is in this image?', [
      { kind: 'image', data: PNG_1PX, name: 'shot.png' },
    ]);
    const content = lastUser(body) as { type: string; text?: string; image_url?: { url: string } }[];
    assert.ok(Array.isArray(content), 'parts, since there is an image');
    assert.deepEqual(content.at(-1), {
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG_1PX}` },
    });
    const { service } = await logbook();
    const message = (await (await service.session(id)).conversation.events()).find(
      (e) => e.kind === 'MessageEvent',
    );
    assert.ok(message?.kind === 'MessageEvent');
    const image = message.llm_message.content.at(-1);
    assert.ok(image?.type === 'image');
    const name = image.image_urls[0]!.replace('logbook-image:', '');
    assert.ok(existsSync(join(service.root, id, 'attachments', name)), 'stored in the conversation folder');
    assert.ok(!JSON.stringify(message).includes(PNG_1PX), 'not inline in the event');
    assert.equal(await service.imageDataUrl(id, image.image_urls[0]!), `data:image/png;base64,${PNG_1PX}`);
  });

  it('with logbook.llm.supportsImages off, the model reads a note instead of the image', async () => {
    await vscode.workspace
      .getConfiguration('logbook')
      .update('llm.supportsImages', false, vscode.ConfigurationTarget.Global);
    const { body } = await send('And now?', [{ kind: 'image', data: PNG_1PX }]);
    const content = lastUser(body);
    assert.equal(typeof content, 'string');
    assert.match(
      String(content),
      /^And now\?\n\n\[An image was attached here, but the model in use does not take images/,
    );
  });

  it('completion finds workspace files by a fuzzy query', async () => {
    const { service } = await logbook();
    const items = await service.mentionCandidates('mth');
    assert.deepEqual(items[0], { kind: 'file', label: 'src/math.js', path: 'src/math.js' });
    const folders = await service.mentionCandidates('src');
    assert.ok(
      folders.some((i) => i.kind === 'folder' && i.path === 'src'),
      JSON.stringify(folders),
    );
  });
});
