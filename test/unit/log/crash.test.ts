// Crash safety: SIGKILL a writer at random moments; every acknowledged append survives and the log
// always opens. "Acknowledged" = the append's promise resolved: written to the file for ordinary
// appends (survives a process crash), also fdatasync'ed for durable ones (survives power loss; a
// power cut cannot be simulated here, so this suite tests process crashes).
import assert from 'node:assert/strict';
import { type TrialResult, crashTrial } from './crash-harness';
import { cleanupTmp, tmpDir } from './helpers';

describe('crash safety (SIGKILL during appends)', function () {
  this.timeout(60_000);
  after(() => cleanupTmp());

  it('keeps every acknowledged append across 24 random kills, in 2 logs killed repeatedly', async () => {
    const seed0 = Date.now() >>> 0;
    const lane = async (lane: number): Promise<TrialResult[]> => {
      const out: TrialResult[] = [];
      let dir = tmpDir(`crash${lane}`);
      for (let t = 0; t < 12; t++) {
        if (t === 6) dir = tmpDir(`crash${lane}`);
        const seed = (seed0 + lane * 1000 + t) >>> 0;
        const duringStartup = t % 6 === 5; // some kills land while the child is opening/recovering
        const killMs = duringStartup ? 300 + ((seed * 7) % 500) : 20 + ((seed * 13) % 250);
        try {
          out.push(await crashTrial(dir, seed, killMs, duringStartup));
        } catch (err) {
          throw new Error(`trial lane ${lane} #${t} (seed ${seed}, kill at ${killMs} ms): ${String(err)}`);
        }
      }
      return out;
    };
    const results = (await Promise.all([lane(0), lane(1)])).flat();
    const acked = results.reduce((n, r) => n + r.acked, 0);
    const durable = results.reduce((n, r) => n + r.durableAcked, 0);
    assert.equal(results.length, 24);
    assert.ok(acked > 100, `only ${acked} acknowledged appends over 24 trials: the kills came too early`);
    assert.ok(durable > 20, `only ${durable} durable acks`);
  });
});
