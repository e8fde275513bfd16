// Mentions in the real extension host: a file, the problems of a file (a diagnostic set through
// VS Code's own API), the last terminal command's output (shell integration) and a pasted image are
// read when the message is sent, recorded in the MessageEvent, and reach the scripted model's server.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
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
      .update('model.supportsImages', undefined, vscode.ConfigurationTarget.Global);
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
    assert.equal(
      (await service.session(id)).conversation.state.title,
      'Explain @src/math.js',
      'the title is what the user typed, not the attachment',
    );
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
    // The JSON export stands alone: the image is inline there, as OpenHands reads image_urls.
    const target = join(mkdtempSync(join(tmpdir(), 'logbook-export-')), 'conversation.json');
    await vscode.commands.executeCommand('logbook.exportConversation', id, 'json', target);
    const exported = JSON.parse(readFileSync(target, 'utf8')) as {
      kind: string;
      llm_message?: { content: unknown[] };
    }[];
    const inline = exported.find((e) => e.kind === 'MessageEvent')?.llm_message?.content.at(-1);
    assert.deepEqual(inline, { type: 'image', image_urls: [`data:image/png;base64,${PNG_1PX}`] });
    rmSync(target, { force: true });
  });

  it('with logbook.model.supportsImages off, the model reads a note instead of the image', async () => {
    await vscode.workspace
      .getConfiguration('logbook')
      .update('model.supportsImages', false, vscode.ConfigurationTarget.Global);
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

describe('mentions: what is attached only with care', function () {
  this.timeout(60_000);
  let llm: ScriptedLlm | undefined;
  const cleanup: (() => void)[] = [];
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    for (const c of cleanup.splice(0)) c();
  });

  async function resolveWith(attachments: Attachment[], answer: boolean) {
    const { resolveAttachments } = await import('../../../src/host/vscode/mentions/resolve-attachments');
    const { ImageStore } = await import('../../../src/core/attachments/image-store');
    const { TerminalHistory } = await import('../../../src/host/vscode/mentions/terminal-history');
    const terminals = new TerminalHistory();
    cleanup.push(() => terminals.dispose());
    const asked: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'logbook-mentions-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const resolved = await resolveAttachments(attachments, {
      images: new ImageStore(dir),
      terminals,
      confirm: async (message) => {
        asked.push(message);
        return answer;
      },
    });
    return { ...resolved, asked };
  }

  it('a symlink in the workspace that leads outside it is judged by its target, and asks first', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'logbook-outside-'));
    writeFileSync(join(outside, 'private.txt'), 'outside-the-workspace-text');
    const link = join(workspaceRoot(), 'src', 'looks-local.txt');
    symlinkSync(join(outside, 'private.txt'), link);
    cleanup.push(() => {
      rmSync(link, { force: true });
      rmSync(outside, { recursive: true, force: true });
    });
    const declined = await resolveWith([{ kind: 'file', path: 'src/looks-local.txt' }], false);
    assert.equal(declined.asked.length, 1);
    assert.match(
      declined.asked[0]!,
      /Attach src\/looks-local\.txt .* It leads to .*private\.txt, outside the workspace/,
    );
    assert.equal(declined.texts.length, 1);
    assert.match(declined.texts[0]!, /\[Not attached: the user chose not to attach it/);
    assert.ok(!declined.texts[0]!.includes('outside-the-workspace-text'));
    const allowed = await resolveWith([{ kind: 'file', path: 'src/looks-local.txt' }], true);
    assert.match(allowed.texts[0]!, /outside-the-workspace-text/);
    // A file inside the workspace is attached without a question.
    const plain = await resolveWith([{ kind: 'file', path: 'src/math.js' }], false);
    assert.deepEqual(plain.asked, []);
    assert.match(plain.texts[0]!, /function add/);
  });

  it('a file dropped from the explorer (a URI) is attached by its workspace path; a foreign scheme is refused', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const dropped = vscode.Uri.joinPath(folder, 'src', 'math.js').toString();
    const { texts, asked } = await resolveWith([{ kind: 'file', path: dropped }], false);
    assert.deepEqual(asked, []);
    assert.match(texts[0]!, /^--- Attached file src\/math\.js \(\d+ lines\) ---\n```js\nfunction add/);
    const foreign = await resolveWith([{ kind: 'file', path: 'https://example.com/x.ts' }], true);
    assert.match(
      foreign.texts[0]!,
      /\[Not attached: https:\/\/example\.com\/x\.ts is not a file of this machine\]/,
    );
  });

  it('a URL on this machine is refused unless logbook.web.allowPrivateAddresses; then fetched only after the user confirms, as Markdown without its scripts (as web_fetch reads it)', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><script>steal()</script></head><body><h1>Release notes</h1><p>Version 2 &amp; more</p></body></html>',
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => server.close());
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = `http://${host}/notes`;
    let hits = 0;
    server.on('request', () => hits++);
    const config = vscode.workspace.getConfiguration('logbook');
    const set = (key: string, value: unknown) => config.update(key, value, vscode.ConfigurationTarget.Global);
    try {
      await fetchesWithRules();
    } finally {
      await set('web.allowPrivateAddresses', undefined);
      await set('web.allowedHosts', undefined);
    }

    async function fetchesWithRules(): Promise<void> {
      const refused = await resolveWith([{ kind: 'url', url }], true);
      assert.deepEqual(refused.asked, [], 'a refused address is not asked about');
      assert.equal(
        refused.texts[0],
        `--- Attached page ${url} ---\n[Not attached: 127.0.0.1 is a loopback address (this machine); logbook.web.allowPrivateAddresses allows it]`,
      );
      assert.equal(hits, 0);

      await set('web.allowPrivateAddresses', true);
      const declined = await resolveWith([{ kind: 'url', url }], false);
      assert.equal(hits, 0, 'nothing is fetched before the user says so');
      assert.match(declined.asked[0]!, new RegExp(`^Fetch ${url} \\(${host} at 127\\.0\\.0\\.1\\)`));
      assert.match(declined.texts[0]!, /Not attached: the user chose not to fetch it/);
      const fetched = await resolveWith([{ kind: 'url', url }], true);
      assert.equal(hits, 1);
      assert.equal(
        fetched.texts[0],
        `--- Attached page ${url} (HTTP 200, text/html, from 127.0.0.1) ---\n## Release notes\n\nVersion 2 & more`,
      );

      // A host the user listed is fetched without a question.
      await set('web.allowedHosts', ['127.0.0.1']);
      const listed = await resolveWith([{ kind: 'url', url }], false);
      assert.deepEqual(listed.asked, []);
      assert.equal(hits, 2);
      assert.match(listed.texts[0]!, /Release notes/);
    }
  });

  it('the git diff of the working tree comes from git, with untracked files named', async function () {
    const root = workspaceRoot();
    if (existsSync(join(root, '.git'))) this.skip();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    cleanup.push(() => rmSync(join(root, '.git'), { recursive: true, force: true }));
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', 'src/math.js');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'base');
    const original = readFileSync(join(root, 'src', 'math.js'), 'utf8');
    writeFileSync(join(root, 'src', 'math.js'), original.replace('return a + b;', 'return a + b + 0;'));
    cleanup.push(() => writeFileSync(join(root, 'src', 'math.js'), original));
    const { texts } = await resolveWith([{ kind: 'diff' }], false);
    assert.match(
      texts[0]!,
      /^--- Attached git diff of the working tree against HEAD ---\n```diff\ndiff --git a\/src\/math\.js b\/src\/math\.js/,
    );
    assert.match(texts[0]!, /-  return a \+ b;\n\+  return a \+ b \+ 0;/);
    assert.match(texts[0]!, /untracked files:\n(.*\n)*.*package\.json/);
  });

  it('a stored API key in a mentioned file is redacted before the message is recorded or sent', async () => {
    const key = 'sk-mentioned-9f8e7d6c5b4a-KEEP-OUT';
    await vscode.commands.executeCommand('logbook.setApiKey', key);
    cleanup.push(() => void vscode.commands.executeCommand('logbook.setApiKey', ''));
    const file = join(workspaceRoot(), 'src', 'notes.txt');
    writeFileSync(file, `the key is ${key}\n`);
    cleanup.push(() => rmSync(file, { force: true }));
    llm = await scriptedModel({ name: 'mentions-secret', turns: [{ reply: { content: 'ok' } }] });
    const { service } = await logbook();
    const s = await service.create();
    await service.setActive(s.id);
    await service.sendMessage('Read @src/notes.txt', { mentions: [{ kind: 'file', path: 'src/notes.txt' }] });
    assert.equal(await s.settled(), 'finished', s.conversation.state.lastError?.message);
    const sent = JSON.stringify(llm.completionBodies()[0]);
    assert.ok(!sent.includes(key), 'the key never reaches the model');
    assert.match(sent, /the key is \[redacted API key\]/);
    const recorded = JSON.stringify(await s.conversation.events());
    assert.ok(!recorded.includes(key), 'nor the log');
  });
});
