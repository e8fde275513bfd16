// The config file layer and `logbook config`: every setting with where it came from, the key
// never shown, bad values refused with their source named, and a run that follows the file
// (under the environment and the flags).
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture, SECRET_KEY } from './fixtures';

interface ConfigJson {
  configFile: { path: string; exists: boolean };
  settings: { key: string; value?: unknown; set?: boolean; from: string }[];
}

describe('logbook config and the config file', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  /** A config folder of its own, with config.json holding `settings` (none: no file). */
  function configHome(settings?: unknown): { XDG_CONFIG_HOME: string; file: string } {
    const home = fx.tmp();
    const file = join(home, 'logbook', 'config.json');
    if (settings !== undefined) {
      mkdirSync(join(home, 'logbook'), { recursive: true });
      writeFileSync(file, typeof settings === 'string' ? settings : JSON.stringify(settings));
    }
    return { XDG_CONFIG_HOME: home, file };
  }

  it('prints each setting with its source: default < file < environment; the key only as set', async () => {
    const { file, ...env } = configHome({
      'model.name': 'file-model',
      maxIterations: 7,
      'sandbox.mode': 'off',
      'sandbox.allowedHosts': ['a.org'],
    });
    const r = await runCli(['config'], {
      env: {
        ...env,
        LOGBOOK_SANDBOX: 'required',
        LOGBOOK_SANDBOX_ALLOW_HOSTS: 'b.org',
        OPENAI_API_KEY: SECRET_KEY,
        LOGBOOK_BASE_URL: 'https://user:hunter2@gateway.example/v1',
      },
    });
    assert.equal(r.code, 0, printed(r));
    const line = (key: string) => r.lines.find((l) => l.startsWith(`${key} `))?.replace(/ +/g, ' ');
    assert.equal(r.lines[0], `config file: ${file}`);
    assert.equal(line('model.name'), `model.name file-model (file ${file})`);
    assert.equal(line('maxIterations'), `maxIterations 7 (file ${file})`);
    assert.equal(line('sandbox.mode'), 'sandbox.mode required (env LOGBOOK_SANDBOX)');
    assert.equal(
      line('sandbox.allowedHosts'),
      `sandbox.allowedHosts ["a.org","b.org"] (file ${file} + env LOGBOOK_SANDBOX_ALLOW_HOSTS)`,
    );
    assert.equal(line('confirmation.mode'), 'confirmation.mode risky (default)');
    assert.equal(line('model.apiKey'), 'model.apiKey set (env OPENAI_API_KEY)');
    assert.equal(line('model.baseURL'), 'model.baseURL https://gateway.example/v1 (env LOGBOOK_BASE_URL)');
    for (const secret of [SECRET_KEY, 'hunter2']) assert.ok(!r.stdout.includes(secret), printed(r));

    const j = await runCli(['config', '--json'], { env });
    assert.equal(j.code, 0, printed(j));
    const parsed = JSON.parse(j.stdout) as ConfigJson;
    assert.deepEqual(parsed.configFile, { path: file, exists: true });
    const byKey = new Map(parsed.settings.map((s) => [s.key, s]));
    assert.deepEqual(byKey.get('model.apiKey'), {
      key: 'model.apiKey',
      set: false,
      from: 'default',
      sources: [{ kind: 'default' }],
    });
    assert.equal(byKey.get('model.name')!.value, 'file-model');
    assert.equal(byKey.get('model.name')!.from, `file ${file}`);
  });

  it('without a file: every value is the default, and the file is named as absent', async () => {
    const { file, ...env } = configHome();
    const r = await runCli(['config', '--json'], { env });
    assert.equal(r.code, 0, printed(r));
    const parsed = JSON.parse(r.stdout) as ConfigJson;
    assert.deepEqual(parsed.configFile, { path: file, exists: false });
    // The test runner sets these two for every CLI it starts.
    const fromEnv = parsed.settings.filter((s) => s.from !== 'default').map((s) => `${s.key} ${s.from}`);
    assert.deepEqual(fromEnv, [
      'checkpoints.dir env LOGBOOK_CHECKPOINTS_DIR',
      'signing.keyFile env LOGBOOK_SIGNING_KEY',
    ]);
    assert.equal(parsed.settings.find((s) => s.key === 'confirmation.mode')!.value, 'risky');
  });

  it('a bad value is an error naming its source, not a crash', async () => {
    const cases: [unknown, Record<string, string>, RegExp][] = [
      [{ maxIterations: 'ten' }, {}, /config\.json: "maxIterations" must be a positive integer, got "ten"\./],
      ['{"model.name": ', {}, /config\.json is not valid JSON/],
      [{ 'llm.modle': 'x' }, {}, /"llm\.modle" is not a setting/],
      [{ 'model.apiKey': SECRET_KEY }, {}, /"model\.apiKey" is not read from a file; set LOGBOOK_API_KEY/],
      [{}, { LOGBOOK_PROMPT_CACHING: 'sometimes' }, /LOGBOOK_PROMPT_CACHING must be one of auto, key/],
    ];
    for (const [settings, extra, message] of cases) {
      const { file: _file, ...env } = configHome(settings);
      for (const argv of [['config'], ['run', '--workspace', fx.tmp(), '--task', 't']]) {
        const r = await runCli(argv, { env: { ...env, ...extra, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
        assert.equal(r.code, 1, printed(r));
        assert.match(r.stderr, message);
        assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
        assert.ok(!r.stderr.includes(SECRET_KEY), printed(r));
      }
    }
  });

  it("reads a setting's old name in the file as its new one, with a line on stderr saying so", async () => {
    const { file, ...env } = configHome({
      'llm.model': 'old-name-model',
      'llm.baseUrl': 'https://old.example/v1',
      'llm.promptCaching': 'off',
      'model.promptCaching': 'key',
    });
    const r = await runCli(['config'], { env });
    assert.equal(r.code, 0, printed(r));
    const line = (key: string) => r.lines.find((l) => l.startsWith(`${key} `))?.replace(/ +/g, ' ');
    assert.equal(line('model.name'), `model.name old-name-model (file ${file})`);
    assert.equal(line('model.baseURL'), `model.baseURL https://old.example/v1 (file ${file})`);
    assert.equal(line('model.promptCaching'), `model.promptCaching key (file ${file})`, 'the new name wins');
    const warnings = r.stderr.trim().split('\n');
    assert.deepEqual(warnings, [
      `logbook: ${file}: "llm.model" is now "model.name"; read as "model.name". Rename it in the file.`,
      `logbook: ${file}: "llm.baseUrl" is now "model.baseURL"; read as "model.baseURL". Rename it in the file.`,
      `logbook: ${file}: "llm.promptCaching" is the old name of "model.promptCaching", which the file also sets; "llm.promptCaching" is ignored. Remove it.`,
    ]);

    // --json keeps stdout to the JSON; the old names go to stderr only.
    const j = await runCli(['config', '--json'], { env });
    assert.equal(j.code, 0, printed(j));
    const parsed = JSON.parse(j.stdout) as ConfigJson;
    assert.equal(parsed.settings.find((s) => s.key === 'model.name')!.value, 'old-name-model');
    assert.match(j.stderr, /"llm\.model" is now "model\.name"/);

    // The old name of a secret is still refused from a file, under its new name.
    const { file: _f, ...secretEnv } = configHome({ 'llm.apiKey': SECRET_KEY });
    const s = await runCli(['config'], { env: secretEnv });
    assert.equal(s.code, 1, printed(s));
    assert.match(s.stderr, /"model\.apiKey" is not read from a file; set LOGBOOK_API_KEY/);
    assert.ok(!s.stderr.includes(SECRET_KEY), printed(s));
  });

  it('commands follow the file, under the environment and the flags', async () => {
    const { file: _file, ...env } = configHome({ 'sandbox.mode': 'off' });
    const fromFile = await runCli(['sandbox', '--json'], { env });
    assert.equal((JSON.parse(fromFile.stdout) as { state: string }).state, 'off', printed(fromFile));
    const fromFlag = await runCli(['sandbox', '--json', '--sandbox', 'auto'], { env });
    assert.notEqual((JSON.parse(fromFlag.stdout) as { state: string }).state, 'off', printed(fromFlag));
    const fromEnv = await runCli(['sandbox', '--json'], { env: { ...env, LOGBOOK_SANDBOX: 'auto' } });
    assert.notEqual((JSON.parse(fromEnv.stdout) as { state: string }).state, 'off', printed(fromEnv));
  });
});
