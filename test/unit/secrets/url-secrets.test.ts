import * as assert from 'node:assert/strict';
import { withoutUrlCredentials } from '../../../src/core/secrets/url-secrets';
import {
  agentEnvironment,
  llmSecrets,
  redactUrlCredentials,
  SecretRedactor,
  urlSecrets,
} from '../../../src/core/secrets';
import { redact } from '../../../src/core/llm/errors';

describe('urlSecrets: the credentials a URL carries', () => {
  it('the password and, next to it, the user name, as written and percent-decoded', () => {
    const values = urlSecrets('https://me%40corp:pa%2Fss-word-99@llm.example/v1', 'base URL');
    assert.deepEqual(values, [
      { name: 'base URL user', value: 'me%40corp' },
      { name: 'base URL user', value: 'me@corp' },
      { name: 'base URL password', value: 'pa%2Fss-word-99' },
      { name: 'base URL password', value: 'pa/ss-word-99' },
    ]);
    assert.deepEqual(urlSecrets('https://just-a-user@llm.example/v1', 'base URL'), []);
  });

  it('secret-looking query values (api-key, key, token, access_token, sig, code), not the others', () => {
    const url =
      'https://llm.example/v1?api-key=AAAA1111&key=BBBB2222&token=CCCC3333&access_token=DDDD4444' +
      '&sig=EEEE5555&code=FFFF6666&api-version=2024-10-21&flag';
    assert.deepEqual(
      urlSecrets(url, 'U').map((s) => `${s.name}=${s.value}`),
      [
        'U api-key=AAAA1111',
        'U key=BBBB2222',
        'U token=CCCC3333',
        'U access_token=DDDD4444',
        'U sig=EEEE5555',
        'U code=FFFF6666',
      ],
    );
    assert.deepEqual(urlSecrets('not a url', 'U'), []);
  });

  it('llmSecrets includes the base URL`s, so the agent`s shell starts without a variable holding one', () => {
    const baseUrl = 'https://bob:s3cret-pass-word@llm.example/v1?api-key=query-key-123456';
    const secrets = llmSecrets({ apiKey: '', baseUrl });
    assert.deepEqual(
      secrets.map((s) => s.value),
      ['bob', 's3cret-pass-word', 'query-key-123456'],
    );
    const shell = agentEnvironment(
      { OPENAI_BASE_URL: baseUrl, PATH: '/bin' },
      { secretValues: secrets.map((s) => s.value) },
    );
    assert.deepEqual(shell.removed, ['OPENAI_BASE_URL']);
  });
});

describe('redactUrlCredentials: user:password@ in any URL', () => {
  it('rewrites the userinfo of every URL and leaves the rest of the text alone', () => {
    assert.equal(
      redactUrlCredentials('git remote: https://x-token:ghp_abc@github.com/o/r.git and ssh://git@host/r'),
      'git remote: https://[redacted credentials]@github.com/o/r.git and ssh://git@host/r',
    );
    assert.equal(
      redactUrlCredentials('a:b@c, mailto:x@y, http://host:8080/p'),
      'a:b@c, mailto:x@y, http://host:8080/p',
    );
  });

  it('SecretRedactor rewrites it even with no known secret; the user name does not survive a known password', () => {
    assert.equal(
      new SecretRedactor([]).redactValue({ out: 'http://al:pw@h/' }).out,
      'http://[redacted credentials]@h/',
    );
    const r = new SecretRedactor([{ name: 'base URL password', value: 'long-password-1' }]);
    assert.equal(
      r.redactText('at http://alice:long-password-1@h/v1 (long-password-1)'),
      'at http://[redacted credentials]@h/v1 ([redacted base URL password])',
    );
  });

  it('the LLM client`s error redaction does the same', () => {
    assert.equal(
      redact('URL that includes credentials: http://u:p@127.0.0.1/v1/chat/completions.', []),
      'URL that includes credentials: http://[redacted credentials]@127.0.0.1/v1/chat/completions.',
    );
  });

  it('withoutUrlCredentials keeps the endpoint and drops user, password and secret parameters', () => {
    assert.equal(
      withoutUrlCredentials('https://al:pw@gw.example/v1?api-key=s3cret&api-version=2024-10-21&sig=x'),
      'https://gw.example/v1?api-version=2024-10-21',
    );
    assert.equal(withoutUrlCredentials('http://127.0.0.1:11434/v1'), 'http://127.0.0.1:11434/v1');
    assert.equal(withoutUrlCredentials('not a url'), 'not a url');
  });
});
