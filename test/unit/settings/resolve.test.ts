import * as assert from 'node:assert/strict';
import {
  describeSource,
  envLayer,
  fileLayer,
  flagLayer,
  llmSettingsFrom,
  resolveSettings,
  SettingsError,
  valuesLayer,
} from '../../../src/core/settings';

const sources = (r: ReturnType<typeof resolveSettings>, key: string) =>
  r.get(key)!.sources.map(describeSource);

describe('settings layers', () => {
  it('defaults < file < recorded < environment < flags, each value with its source', () => {
    const r = resolveSettings(
      [
        fileLayer('/c.json', { 'model.name': 'file-model', maxIterations: 7, 'sandbox.mode': 'off' }, 'cli'),
        valuesLayer({ kind: 'recorded', path: '/s.json' }, { maxIterations: 9 }),
        envLayer({ LOGBOOK_MODEL: 'env-model', LOGBOOK_SANDBOX: 'required' }, 'cli'),
        flagLayer({ sandbox: 'auto' }, 'cli'),
      ],
      { host: 'cli' },
    );
    assert.equal(r.get('model.name')!.value, 'env-model');
    assert.deepEqual(sources(r, 'model.name'), ['env LOGBOOK_MODEL']);
    assert.equal(r.get('maxIterations')!.value, 9);
    assert.deepEqual(sources(r, 'maxIterations'), ['run /s.json']);
    assert.equal(r.get('sandbox.mode')!.value, 'auto');
    assert.deepEqual(sources(r, 'sandbox.mode'), ['flag --sandbox']);
    assert.equal(r.get('confirmation.mode')!.value, 'risky');
    assert.deepEqual(sources(r, 'confirmation.mode'), ['default']);
    // A setting only VS Code reads is not in the CLI's settings.
    assert.equal(r.has('model.provider'), false);
  });

  it('the first variable set wins: LOGBOOK_API_KEY over OPENAI_API_KEY, a blank one counts as unset', () => {
    const both = resolveSettings([envLayer({ LOGBOOK_API_KEY: 'a', OPENAI_API_KEY: 'b' }, 'cli')], {
      host: 'cli',
    });
    assert.equal(both.get('model.apiKey')!.value, 'a');
    const blank = resolveSettings([envLayer({ LOGBOOK_API_KEY: ' ', OPENAI_API_KEY: 'b' }, 'cli')], {
      host: 'cli',
    });
    assert.deepEqual(sources(blank, 'model.apiKey'), ['env OPENAI_API_KEY']);
  });

  it('lists that add up: file, environment and repeated flags together, once each', () => {
    const r = resolveSettings(
      [
        fileLayer('/c.json', { 'sandbox.allowedHosts': ['a.org'] }, 'cli'),
        envLayer({ LOGBOOK_SANDBOX_ALLOW_HOSTS: 'b.org, c.org a.org' }, 'cli'),
        flagLayer({ 'allow-host': ['d.org', 'b.org'] }, 'cli'),
      ],
      { host: 'cli' },
    );
    assert.deepEqual(r.get('sandbox.allowedHosts')!.value, ['a.org', 'b.org', 'c.org', 'd.org']);
    assert.deepEqual(sources(r, 'sandbox.allowedHosts'), [
      'file /c.json',
      'env LOGBOOK_SANDBOX_ALLOW_HOSTS',
      'flag --allow-host',
    ]);
  });

  it('text is read by kind: numbers, booleans, JSON, lists; a flag without value sets its value', () => {
    const r = resolveSettings(
      [
        envLayer(
          {
            LOGBOOK_MAX_COST: '0.5',
            LOGBOOK_CHECKPOINTS: 'off',
            LOGBOOK_PRICING: '{"m":{"input":1,"output":2}}',
            LOGBOOK_CHECKPOINTS_EXCLUDE: 'build/, my file.txt',
            LOGBOOK_REPLY_TIMEOUT_SECONDS: '30',
          },
          'cli',
        ),
        flagLayer({ demo: true, 'no-checkpoints': false }, 'cli'),
      ],
      { host: 'cli' },
    );
    assert.equal(r.get('budget.maxCost')!.value, 0.5);
    assert.equal(r.get('checkpoints.enabled')!.value, false);
    assert.deepEqual(r.get('checkpoints.exclude')!.value, ['build/', 'my file.txt']);
    assert.equal(r.get('demo')!.value, true);
    const llm = llmSettingsFrom(r);
    assert.equal(llm.replyTimeoutMs, 30_000);
    assert.deepEqual(llm.prices, { m: { input: 1, output: 2 } });
  });

  it('a bad value is an error naming its source, never echoing a secret', () => {
    const fails = (fn: () => unknown, message: RegExp, kind: string) =>
      assert.throws(fn, (e: unknown) => {
        assert.ok(e instanceof SettingsError);
        assert.match(e.message, message);
        assert.equal(e.source.kind, kind);
        return true;
      });
    fails(
      () => resolveSettings([envLayer({ LOGBOOK_SANDBOX: 'sometimes' }, 'cli')], { host: 'cli' }),
      /^LOGBOOK_SANDBOX must be one of auto, required, off, got "sometimes"\.$/,
      'env',
    );
    fails(
      () => resolveSettings([fileLayer('/c.json', { maxIterations: 'ten' }, 'cli')], { host: 'cli' }),
      /^\/c\.json: "maxIterations" must be a positive integer, got "ten"\.$/,
      'file',
    );
    fails(() => fileLayer('/c.json', { 'llm.modle': 'x' }, 'cli'), /"llm\.modle" is not a setting/, 'file');
    fails(() => fileLayer('/c.json', [1], 'cli'), /must hold a JSON object/, 'file');
    fails(
      () => fileLayer('/c.json', { 'model.apiKey': 'sk-secret-value' }, 'cli'),
      /^(?!.*sk-secret).*set LOGBOOK_API_KEY or OPENAI_API_KEY in the environment/,
      'file',
    );
    fails(
      () => resolveSettings([flagLayer({ 'max-iterations': '0' }, 'cli')], { host: 'cli' }),
      /^--max-iterations must be a positive integer, got "0"\.$/,
      'flag',
    );
    fails(
      () => flagLayer({ 'confirmation-mode': 'never', confirm: 'always' }, 'cli'),
      /--confirmation-mode never and --confirm always disagree/,
      'flag',
    );
    fails(
      () => resolveSettings([envLayer({ LOGBOOK_PRICING: '{not json' }, 'cli')], { host: 'cli' }),
      /^LOGBOOK_PRICING must be JSON such as/,
      'env',
    );
    fails(
      () => resolveSettings([envLayer({ LOGBOOK_PRICING: '{"m":{"input":1}}' }, 'cli')], { host: 'cli' }),
      /^LOGBOOK_PRICING: "m": needs input and output/,
      'env',
    );
    fails(
      () => resolveSettings([envLayer({ LOGBOOK_PASS_ENV: 'GOOD bad-name' }, 'cli')], { host: 'cli' }),
      /^LOGBOOK_PASS_ENV must be variable names/,
      'env',
    );
  });

  it('read leniently (VS Code), a bad value falls back to the layer below and is reported', () => {
    const problems: string[] = [];
    const r = resolveSettings(
      [
        valuesLayer({ kind: 'user' }, { maxIterations: 12, 'sandbox.mode': 'off' }),
        valuesLayer({ kind: 'workspace' }, { maxIterations: -3, 'model.name': 'ws-model' }),
      ],
      { host: 'vscode', lenient: { onProblem: (p) => problems.push(p) } },
    );
    assert.equal(r.get('maxIterations')!.value, 12);
    assert.deepEqual(sources(r, 'maxIterations'), ['user settings']);
    assert.equal(r.get('model.name')!.value, 'ws-model');
    assert.deepEqual(problems, [
      'logbook.maxIterations in workspace settings must be a positive integer, got -3.',
    ]);
  });
});
