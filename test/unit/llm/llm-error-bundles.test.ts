// A model client loaded from a bundle of its own (the external ACP agent's, dist/lazy/acp-agent.js)
// throws that bundle's copy of LlmError, which is not `instanceof` the class of the bundle running
// the conversation. The test builds such a copy the way the build does (esbuild, one bundle holding
// AgentLlm and LlmError) and checks that the conversation still reads the failure's kind.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Event } from '../../../src/core/events';
import { isLlmError, type LlmClient, LlmError, type LlmErrorKind } from '../../../src/core/llm';
import type * as AgentLlmModule from '../../../src/host/node/acp/agent-llm';
import { createHarness, type Harness } from '../../support/agent-harness';

const root = join(__dirname, '..', '..', '..');

interface OtherBundle {
  AgentLlm: typeof AgentLlmModule.AgentLlm;
  LlmError: typeof LlmError;
}

const errorsOf = (events: readonly Event[]) =>
  events.filter(
    (e): e is Extract<Event, { kind: 'ConversationErrorEvent' }> => e.kind === 'ConversationErrorEvent',
  );

describe('LlmError thrown by another bundle', function () {
  this.timeout(60_000);
  let dir: string;
  let other: OtherBundle;
  let h: Harness | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logbook-llm-error-'));
    const outfile = join(dir, 'acp-agent.js');
    await build({
      stdin: {
        contents:
          "export { AgentLlm } from './src/host/node/acp/agent-llm';\nexport { LlmError } from './src/core/llm/types';\n",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile,
      logLevel: 'error',
    });
    other = createRequire(__filename)(outfile) as OtherBundle;
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs one task whose model call fails as `llm` does; its status and events. */
  async function runWith(llm: LlmClient) {
    h = await createHarness({ name: 'unused', turns: [] }, {}, { llm });
    const c = await h.open();
    await c.sendMessage('do the task');
    const status = await c.run();
    return { status, events: await c.events() };
  }

  const failing = (kind: LlmErrorKind, message: string): LlmClient => ({
    model: 'other-bundle',
    complete: () => Promise.reject(new other.LlmError(kind, message, 401, { cause: 'why' })),
  });

  it('is a copy of the class (so instanceof fails), and isLlmError knows it with its kind, status and cause', () => {
    const e = new other.LlmError('auth', 'no key', 401, { cause: 'why' });
    assert.notEqual(other.LlmError, LlmError);
    assert.equal(e instanceof LlmError, false);
    assert.ok(isLlmError(e));
    assert.deepEqual([e.kind, e.status, e.cause], ['auth', 401, 'why']);
    assert.equal(isLlmError(new Error('plain')), false);
    assert.equal(isLlmError(Object.assign(new Error('x'), { name: 'LlmError', kind: 'auth' })), false);
    assert.equal(isLlmError(undefined), false);
  });

  it("records the external agent's refusal in an untrusted workspace as a bad request, with its message", async () => {
    const agent = new other.AgentLlm({
      name: 'helper',
      cwd: root,
      sandbox: undefined as never,
      trusted: () => false,
      entries: () => ({}),
      replyTimeoutSec: () => 30,
      log: () => {},
    });
    const { status, events } = await runWith(agent);
    assert.equal(status, 'error');
    const [err] = errorsOf(events);
    assert.equal(err?.code, 'llm_bad_request');
    assert.match(err.detail, /not trusted.*"helper"/);
  });

  it('records an auth failure as one (not as a lost connection)', async () => {
    const { status, events } = await runWith(failing('auth', 'The key was refused.'));
    assert.equal(status, 'error');
    assert.deepEqual(
      errorsOf(events).map((e) => [e.code, e.detail]),
      [['llm_auth', 'The key was refused.']],
    );
  });

  it('pauses, recording no error, when the other bundle reports the call stopped by the user', async () => {
    const { status, events } = await runWith(failing('aborted', 'Stopped by the user.'));
    assert.equal(status, 'paused');
    assert.deepEqual(errorsOf(events), []);
  });
});
