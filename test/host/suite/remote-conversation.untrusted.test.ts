// In an untrusted workspace Logbook connects to no agent-server: Start Agent Task on Server…
// starts no conversation and sends nothing, not even with the server's key already stored.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { logbook, workspaceRoot } from './helpers';

describe('Remote conversations: untrusted workspace', function () {
  this.timeout(60_000);
  let server: Server;
  let url: string;
  const requests: string[] = [];
  before(async () => {
    // A stand-in that records every request: had Logbook connected, it would be here.
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"x"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => server?.close());

  it('Start Agent Task on Server… starts no conversation and contacts no server', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const { service } = await logbook();
    await service.remote.setKey(url, 'a-key');
    const before = service.list().length;
    const id = await vscode.commands.executeCommand('logbook.startRemoteTask', url, 'Do it', '/srv/project');
    assert.equal(id, undefined);
    assert.equal(service.list().length, before);
    assert.deepEqual(requests, []);
  });

  it("Review and Apply of a remote conversation's change contact no server and write nothing", async () => {
    const { service } = await logbook();
    await service.remote.setKey(url, 'a-key');
    const id = 'untrusted-remote';
    const dir = join(service.root, id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'remote.json'),
      JSON.stringify({ server: url, conversation_id: id, working_dir: '/srv/project' }),
    );
    try {
      assert.equal(await vscode.commands.executeCommand('logbook.reviewRemoteChanges', id), undefined);
      assert.equal(await vscode.commands.executeCommand('logbook.applyRemoteChanges', id, true), undefined);
      assert.deepEqual(requests, []);
      assert.equal(existsSync(join(workspaceRoot(), 'out.txt')), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
