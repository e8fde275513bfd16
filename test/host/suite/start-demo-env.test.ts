// `npm start` without a model: the demo it runs beside VS Code is found in the window's environment
// (LOGBOOK_DEMO_URL), so nothing is written to the user's settings; connecting a model ends it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { configuredModel } from '../../../src/host/vscode/conversations/session-header';
import { logbook } from './helpers';

describe('The npm start demo, from the environment', function () {
  this.timeout(30_000);
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  let saved: { baseURL: unknown; name: unknown };

  before(async () => {
    saved = {
      baseURL: cfg().inspect('model.baseURL')?.globalValue,
      name: cfg().inspect('model.name')?.globalValue,
    };
    await cfg().update('model.baseURL', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('model.name', undefined, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    delete process.env['LOGBOOK_DEMO_URL'];
    await cfg().update('model.baseURL', saved.baseURL, vscode.ConfigurationTarget.Global);
    await cfg().update('model.name', saved.name, vscode.ConfigurationTarget.Global);
  });

  it('answers as the demo with the settings untouched, until a model is set', async () => {
    const { service } = await logbook();
    process.env['LOGBOOK_DEMO_URL'] = 'http://127.0.0.1:9/v1';
    assert.ok(service.demoTasks()?.length, 'the empty chat offers the demo tasks');
    assert.equal(configuredModel().name, 'demo');
    assert.equal(cfg().inspect('model.baseURL')?.globalValue, undefined, 'no endpoint written');
    assert.equal(cfg().inspect('model.name')?.globalValue, undefined, 'no model name written');

    await cfg().update('model.name', 'my-model', vscode.ConfigurationTarget.Global);
    assert.equal(service.demoTasks(), undefined, 'a model set ends the demo');
    assert.equal(configuredModel().name, 'my-model');
  });
});
