// An agent-server that names its new conversation with a path: the name becomes a folder under the
// conversations folder (in the CLI and in the editor), so "../../x" would put the log, and
// remote.json, outside it. Both hosts take the id through one check before anything is written.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { runCli } from '../cli/cli-runner';

const ESCAPES = ['../../escaped', '..', 'a/b', '.hidden', 'x\\y', ''];

describe('hostile: an agent-server names its conversation with a path', function () {
  this.timeout(60_000);
  let root: string;
  let server: Server | undefined;

  beforeEach(() => {
    // Under the repository's ignored test output, not /tmp.
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-id-'));
  });
  afterEach(() => {
    server?.close();
    server = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  async function serverNaming(id: string): Promise<string> {
    server = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(req.method === 'POST' && req.url === '/api/conversations' ? JSON.stringify({ id }) : '{}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  // Plan mode does not apply: the server's agent has none, and the id comes before any step.
  for (const id of ESCAPES) {
    it(`"${id}" is refused with a clear error and nothing is written`, async () => {
      const workspace = join(root, 'ws', 'project');
      mkdirSync(workspace, { recursive: true });
      const url = await serverNaming(id);
      const r = await runCli(['run', '--remote', url, 'hi'], {
        env: {
          OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
          OPENAI_API_KEY: 'sk-test',
          LOGBOOK_MODEL: 'scripted-model',
          LOGBOOK_REMOTE_KEY: 'k',
        },
        cwd: workspace,
      });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /is not a conversation id/);
      assert.deepEqual(readdirSync(join(root, 'ws')), ['project'], 'nothing beside the workspace');
      assert.equal(existsSync(join(workspace, '.logbook', 'conversations')), false, 'no folder made');
    });
  }
});
