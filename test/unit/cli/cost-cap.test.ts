// The CLI's budgets and prices come from the environment (LOGBOOK_MAX_TOKENS, LOGBOOK_MAX_COST,
// LOGBOOK_PRICING); a cost cap on a model of unknown cost is said once, as a [budget] line.
import * as assert from 'node:assert/strict';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture, onlyConversationDir, terminalCall } from './fixtures';

const steps = (n: number, usage: { prompt: number; completion: number; cost?: number }) =>
  Array.from({ length: n }, (_, i) => ({
    reply: { toolCalls: [terminalCall(`c${i}`, `echo ${i}`)], usage },
  }));

const scenario = (name: string, turns: ReturnType<typeof steps>) => ({
  name,
  turns,
  fallback: { content: 'Done.', usage: { prompt: 10, completion: 10 } },
});

describe('logbook run: cost cap and prices', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('says once that the cost of an unpriced model is unknown and stops on LOGBOOK_MAX_TOKENS', async () => {
    const env = await fx.startLlm(scenario('cli-unpriced', steps(3, { prompt: 300, completion: 100 })));
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'spend', '--confirm', 'never'], {
      env: { ...env, LOGBOOK_MAX_COST: '0.5', LOGBOOK_MAX_TOKENS: '1000' },
    });
    assert.equal(r.code, 3, printed(r));
    const said = r.lines.filter((l) => l.startsWith('[budget] '));
    assert.equal(said.length, 1, printed(r));
    assert.match(
      said[0]!,
      /cost of model "scripted-model" is unknown.*token budget of 1000 tokens is enforced instead/,
    );
    assert.ok(
      r.lines.some((l) => /^\[error\] token_budget: /.test(l)),
      printed(r),
    );
    const show = await runCli(['show', onlyConversationDir(ws)]);
    assert.match(show.stdout, /error/, printed(show));
  });

  it('says the cap cannot be enforced without a token budget', async () => {
    const env = await fx.startLlm(scenario('cli-unpriced', steps(1, { prompt: 300, completion: 100 })));
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'spend', '--confirm', 'never'], {
      env: { ...env, LOGBOOK_MAX_COST: '0.5' },
    });
    assert.equal(r.code, 0, printed(r));
    const said = r.lines.filter((l) => l.startsWith('[budget] '));
    assert.equal(said.length, 1, printed(r));
    assert.match(said[0]!, /cost cap cannot be enforced for this model/);
  });

  it('prices the model from LOGBOOK_PRICING and stops on LOGBOOK_MAX_COST', async () => {
    const env = await fx.startLlm(scenario('cli-priced', steps(3, { prompt: 1000, completion: 500 })));
    const r = await runCli(
      ['run', '--workspace', fx.tmp(), '--task', 'spend', '--confirm', 'never', '--json'],
      {
        env: {
          ...env,
          LOGBOOK_MAX_COST: '2',
          LOGBOOK_PRICING: JSON.stringify({
            'scripted-model': { input: 1000, cachedInput: 100, output: 1000 },
          }),
        },
      },
    );
    assert.equal(r.code, 3, printed(r));
    const events = jsonLines(r);
    const usage = events.filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'llm_usage');
    assert.equal(usage.length, 2, printed(r));
    assert.equal((usage[0]!.value as { cost: number }).cost, 1.5);
    assert.ok(!events.some((e) => e.key === 'cost_unknown'), printed(r));
    const error = events.find((e) => e.kind === 'ConversationErrorEvent');
    assert.equal(error?.code, 'cost_budget', printed(r));
  });

  it("counts the provider's usage.cost", async () => {
    const env = await fx.startLlm(
      scenario('cli-provider-cost', steps(3, { prompt: 10, completion: 10, cost: 0.3 })),
    );
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'spend', '--confirm', 'never'], {
      env: { ...env, LOGBOOK_MAX_COST: '0.5' },
    });
    assert.equal(r.code, 3, printed(r));
    assert.ok(!r.lines.some((l) => l.startsWith('[budget] ')), printed(r));
    assert.ok(
      r.lines.some((l) => /^\[error\] cost_budget: The conversation cost \$0\.60,/.test(l)),
      printed(r),
    );
  });

  it('refuses LOGBOOK_PRICING that is not a price table', async () => {
    for (const [value, message] of [
      ['{not json', /LOGBOOK_PRICING must be JSON/],
      ['{"m":{"input":1}}', /LOGBOOK_PRICING: "m": needs input and output/],
    ] as const) {
      const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 't'], {
        env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', LOGBOOK_PRICING: value },
      });
      assert.equal(r.code, 1, printed(r));
      assert.match(r.stderr, message);
    }
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 't'], {
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', LOGBOOK_MAX_COST: 'ten' },
    });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /LOGBOOK_MAX_COST must be a number of USD above 0, got "ten"/);
  });
});
