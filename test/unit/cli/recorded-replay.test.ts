// Replays the conversation stored in test/fixtures/recordings/count-and-edit (recorded once with
// `logbook run`, see its README) on a temp copy: a tool, prompt or dependency change that alters
// what the agent saw shows up here as a divergence.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const RECORDING = join(__dirname, '../../fixtures/recordings/count-and-edit');

/** Every file under `dir` with a hash of its bytes: the committed fixture must stay as it is. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

describe('logbook replay of the stored recording', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  let before: Record<string, string>;
  beforeEach(() => (before = snapshot(RECORDING)));
  afterEach(async () => {
    await fx.cleanup();
    assert.deepEqual(snapshot(RECORDING), before, 'the committed recording was written to');
  });

  /** A temp copy of the recording; replay finds its checkpoint store through LOGBOOK_CHECKPOINTS_DIR. */
  function copyOfRecording(): { conv: string; env: Record<string, string> } {
    const root = fx.tmp('logbook-recorded-');
    cpSync(RECORDING, root, { recursive: true });
    return { conv: join(root, 'conversation'), env: { LOGBOOK_CHECKPOINTS_DIR: join(root, 'checkpoints') } };
  }

  it('replays with no divergence', async () => {
    const { conv, env } = copyOfRecording();
    const r = await runCli(['replay', conv], { env });
    assert.equal(r.code, 0, printed(r));
    assert.match(r.lines[0]!, /^replaying in .* \(the workspace as checkpoint [0-9a-f]{12} holds it\)$/);
    assert.equal(r.lines.at(-1), 'replayed 2 actions, no divergence');
  });

  it('names the first divergence and exits 4 when a tool the recording ran behaves differently', async () => {
    const { conv, env } = copyOfRecording();
    // A `wc` that counts differently first on PATH, as after an upgrade of the tool. The sandbox
    // gives commands a /tmp of their own, so this replay runs without it to see the stand-in.
    const bin = join(fx.tmp('logbook-recorded-bin-'), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'wc'), '#!/bin/sh\necho "99 $2"\n');
    chmodSync(join(bin, 'wc'), 0o755);
    const r = await runCli(['replay', conv, '--sandbox', 'off'], {
      env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    assert.equal(r.code, 4, printed(r));
    assert.match(r.stdout, /^divergence at event \d+ \(action 1 of 2\): terminal: wc -l src\/math\.js$/m);
    assert.match(r.stdout, /^ {2}recorded: .*\b5 src\/math\.js/m);
    assert.match(r.stdout, /^ {4}- 5 src\/math\.js$/m);
    assert.match(r.stdout, /^ {4}\+ 99 src\/math\.js$/m);
    assert.doesNotMatch(r.stdout, /no divergence/);
  });
});

describe('logbook replay of the stored recording with a delegation', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  const recording = join(__dirname, '../../fixtures/recordings/delegate-and-edit');
  let before: Record<string, string>;
  beforeEach(() => (before = snapshot(recording)));
  afterEach(async () => {
    await fx.cleanup();
    assert.deepEqual(snapshot(recording), before, 'the committed recording was written to');
  });

  /** A temp copy; its `config/` is the user's config folder, where the counter agent is defined. */
  function copyOfRecording(): { conv: string; env: Record<string, string> } {
    const root = fx.tmp('logbook-recorded-');
    cpSync(recording, root, { recursive: true });
    return {
      conv: join(root, 'conversation'),
      env: { LOGBOOK_CHECKPOINTS_DIR: join(root, 'checkpoints'), XDG_CONFIG_HOME: join(root, 'config') },
    };
  }

  it('replays the delegated agent on its recorded replies with no divergence', async () => {
    const { conv, env } = copyOfRecording();
    const r = await runCli(['replay', conv, '--keep'], { env });
    assert.equal(r.code, 0, printed(r));
    assert.ok(r.lines.includes('replayed 2 actions, no divergence'), printed(r));
    // The child ran again in the replay's own folder, under the same branch, and ran wc there.
    const kept = /^kept (.*)$/m.exec(r.stdout)?.[1];
    assert.ok(kept, printed(r));
    const agents = join(kept, 'conversation', 'agents');
    const [child] = readdirSync(agents);
    assert.ok(child, 'the replay started the child');
    const childLog = readdirSync(join(agents, child, 'segments'))
      .map((f) => readFileSync(join(agents, child, 'segments', f), 'utf8'))
      .join('');
    assert.match(childLog, /main\.counter\.1/);
    assert.match(childLog, /wc -l src\/math\.js/);
  });

  it("a tool result that changed inside the child: exit 4, naming the child's branch and its event", async () => {
    const { conv, env } = copyOfRecording();
    const bin = join(fx.tmp('logbook-recorded-bin-'), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'wc'), '#!/bin/sh\necho "99 $2"\n');
    chmodSync(join(bin, 'wc'), 0o755);
    const r = await runCli(['replay', conv, '--sandbox', 'off'], {
      env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    assert.equal(r.code, 4, printed(r));
    assert.match(
      r.stdout,
      /^divergence in main\.counter\.1 at event \d+ \(action 1 of 2\): terminal: wc -l src\/math\.js$/m,
    );
    assert.match(r.stdout, /^ {4}- 5 src\/math\.js$/m);
    assert.match(r.stdout, /^ {4}\+ 99 src\/math\.js$/m);
  });
});
