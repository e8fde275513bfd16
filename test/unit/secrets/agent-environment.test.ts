import * as assert from 'node:assert/strict';
import { agentEnvironment, parseVariableNames } from '../../../src/core/secrets';

describe('agentEnvironment: the shell starts without Logbook secrets', () => {
  const KEY = 'sk-stored-in-secret-storage-123';
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    OPENAI_API_KEY: 'sk-from-env-0000000',
    OPENAI_BASE_URL: 'https://api.example.com/v1',
    LOGBOOK_MODEL: 'gpt-4o-mini',
    LOGBOOK_TEST_MODE: '1',
    MY_TOKEN: KEY,
    AUTH_HEADER: `Bearer ${KEY}`,
    UNSET: undefined,
  };

  it('drops OPENAI_API_KEY, every LOGBOOK_* variable and any variable holding a known secret', () => {
    const r = agentEnvironment(env, { secretValues: [KEY] });
    assert.deepEqual(r.env, {
      PATH: '/usr/bin',
      HOME: '/home/me',
      OPENAI_BASE_URL: 'https://api.example.com/v1',
    });
    assert.deepEqual(r.removed, [
      'AUTH_HEADER',
      'LOGBOOK_MODEL',
      'LOGBOOK_TEST_MODE',
      'MY_TOKEN',
      'OPENAI_API_KEY',
    ]);
  });

  it('keeps the variables the user passes on by name', () => {
    const r = agentEnvironment(env, {
      pass: ['OPENAI_API_KEY', 'LOGBOOK_MODEL', 'MY_TOKEN'],
      secretValues: [KEY],
    });
    assert.equal(r.env.OPENAI_API_KEY, 'sk-from-env-0000000');
    assert.equal(r.env.LOGBOOK_MODEL, 'gpt-4o-mini');
    assert.equal(r.env.MY_TOKEN, KEY);
    assert.deepEqual(r.removed, ['AUTH_HEADER', 'LOGBOOK_TEST_MODE']);
  });

  it('ignores secrets too short to be told apart from ordinary values', () => {
    const r = agentEnvironment({ PATH: '/usr/bin', SHORT: 'abc' }, { secretValues: ['/usr', 'abc', ''] });
    assert.deepEqual(r.env, { PATH: '/usr/bin', SHORT: 'abc' });
  });

  it('parses a list of names separated by commas or spaces', () => {
    assert.deepEqual(parseVariableNames(' A,B  C,,'), ['A', 'B', 'C']);
    assert.deepEqual(parseVariableNames(undefined), []);
  });
});
