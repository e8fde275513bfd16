// One session factory for both hosts (src/host/node/session/agent-session.ts): the tool set is made
// there from the settings, never by a host. The CLI's session, opened from resolved settings as
// `logbook run` opens it, offers exactly the factory's tools for those settings plus the main
// agent's own; and no module of a host makes a tool set, a gate or a shell tracker of its own.
// VS Code's side is checked in the real editor (test/host/suite/session-factory.test.ts).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DELEGATE_TOOL_NAME } from '../../../src/core/agents/delegate-tool';
import { TRANSFER_TOOL_NAME } from '../../../src/core/agents/transfer-tool';
import { type CliSession, openCliSession, prepareCliSession } from '../../../src/host/node/cli/cli-session';
import { cliSettings } from '../../../src/host/node/cli/cli-settings';
import type { CliIo } from '../../../src/host/node/cli/io';
import { agentTools, webSearchFrom } from '../../../src/host/node/session/agent-tools';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FACTORY = 'src/host/node/session/';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Host files (outside the factory) that call one of `calls`. */
function assemblersOutsideFactory(
  files: readonly { path: string; text: string }[],
  calls: readonly string[],
): string[] {
  const pattern = new RegExp(`\\b(?:${calls.join('|')})\\s*\\(`);
  return files.filter((f) => !f.path.startsWith(FACTORY) && pattern.test(f.text)).map((f) => f.path);
}

describe('one session factory for both hosts', function () {
  this.timeout(30_000);

  describe('where sessions are assembled', () => {
    const hostFiles = sourceFiles(join(root, 'src', 'host')).map((path) => ({
      path: relative(root, path).split('\\').join('/'),
      text: readFileSync(path, 'utf8'),
    }));
    const ASSEMBLY = ['defaultTools', 'agentTools', 'assembleConversation', 'trackShellCwd'];

    it('the check finds a host that builds a tool set or a conversation itself', () => {
      const found = assemblersOutsideFactory(
        [
          { path: 'src/host/vscode/a.ts', text: 'const tools = defaultTools({ web });' },
          { path: 'src/host/node/b.ts', text: 'await assembleConversation ({ id })' },
          { path: 'src/host/node/session/agent-tools.ts', text: 'return defaultTools({});' },
          { path: 'src/host/node/c.ts', text: '// the factory calls agentTools, not this file' },
        ],
        ASSEMBLY,
      );
      assert.deepEqual(found, ['src/host/vscode/a.ts', 'src/host/node/b.ts']);
    });

    it(`only ${FACTORY} makes the tool set, the shell tracker and the conversation in src/host`, () => {
      assert.ok(hostFiles.length > 50, `only ${hostFiles.length} host files found`);
      assert.deepEqual(assemblersOutsideFactory(hostFiles, ASSEMBLY), []);
    });
  });

  describe("the CLI's session", () => {
    let dir: string;
    let session: CliSession | undefined;

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'logbook-factory-'));
      mkdirSync(join(dir, 'ws'));
    });

    afterEach(async () => {
      await session?.close();
      session = undefined;
      rmSync(dir, { recursive: true, force: true });
    });

    async function open(env: Record<string, string>): Promise<string[]> {
      const io: CliIo = {
        out: () => undefined,
        err: () => undefined,
        env: {
          HOME: dir,
          XDG_CONFIG_HOME: join(dir, 'config'),
          PATH: process.env.PATH,
          OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
          OPENAI_API_KEY: 'test-key',
          LOGBOOK_MODEL: 'scripted-model',
          LOGBOOK_SANDBOX: 'off',
          ...env,
        },
        cwd: dir,
        onInterrupt: () => () => undefined,
      };
      const prepared = prepareCliSession('run', io, cliSettings('run', io.env));
      session = await openCliSession(prepared, {
        storeDir: join(dir, 'conversation'),
        workspace: join(dir, 'ws'),
        id: 'c1',
        mode: { json: false },
        demo: false,
      });
      return session.session.tools.map((t) => t.name);
    }

    const factoryNames = (searxngUrl: string) =>
      agentTools({
        web: {
          rules: () => ({ allowPrivateAddresses: false, allowedHosts: [] }),
          ...(webSearchFrom(searxngUrl) ? { search: webSearchFrom(searxngUrl)! } : {}),
        },
      }).map((t) => t.name);
    const MAIN_AGENT = [DELEGATE_TOOL_NAME, TRANSFER_TOOL_NAME];

    it('offers the factory’s tools for its settings, and the main agent’s own after them', async () => {
      const names = await open({});
      assert.deepEqual(names, [...factoryNames(''), ...MAIN_AGENT]);
      assert.ok(names.includes('fetch') && !names.includes('web_search'), names.join(', '));
    });

    it('a search service in the settings adds web_search there as in the factory', async () => {
      const names = await open({ LOGBOOK_SEARXNG_URL: 'http://127.0.0.1:9' });
      assert.deepEqual(names, [...factoryNames('http://127.0.0.1:9'), ...MAIN_AGENT]);
      assert.ok(names.includes('web_search'), names.join(', '));
    });
  });
});
