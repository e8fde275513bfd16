// The settings that guard the user are marked once, in the schema; both hosts read the mark. A
// new setting of the sandbox, the web or MCP servers guards the user too, and must say so.
import * as assert from 'node:assert/strict';
import { GUARDING_SETTINGS, SETTINGS, valueText } from '../../../src/core/settings';

describe('settings that guard the user', () => {
  it('are the confirmation, the endpoint and its headers, passed variables, MCP, sandbox and web settings', () => {
    const keys = GUARDING_SETTINGS.map((s) => s.key);
    for (const key of [
      'confirmation.mode',
      'confirmation.allowRules',
      'model.baseURL',
      'model.extraHeaders',
      'terminal.passEnvironment',
      'mcp.servers',
      'mcp.configFile',
    ]) {
      assert.ok(keys.includes(key), `${key} guards the user`);
    }
    assert.ok(!keys.includes('model.name') && !keys.includes('terminal.timeoutSeconds'));
  });

  it('every sandbox, web, MCP and hooks setting is marked', () => {
    const unmarked = SETTINGS.filter((s) => /^(sandbox|web|mcp|hooks)\./.test(s.key) && !s.guards);
    assert.deepEqual(
      unmarked.map((s) => s.key),
      [],
    );
  });

  it("a value's text does not depend on the order of an object's keys, and any change changes it", () => {
    assert.equal(valueText({ b: 1, a: { d: 2, c: [3] } }), valueText({ a: { c: [3], d: 2 }, b: 1 }));
    assert.notEqual(valueText(['npm test']), valueText(['npm test', 'rm']));
    assert.notEqual(valueText('never'), valueText('risky'));
  });
});
