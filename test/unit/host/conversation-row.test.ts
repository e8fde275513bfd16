import * as assert from 'node:assert/strict';
import {
  conversationRow,
  shortWhen,
  taskConversationRow,
} from '../../../src/host/vscode/conversations/conversation-row';

describe('a row of the Conversations view', () => {
  const now = new Date(2026, 10, 26, 15, 0);

  it('leads with the time and the status, so two rows of one title differ in their first words', () => {
    const a = conversationRow(
      {
        title: 'Add a subtract function to src/math.js',
        updated: new Date(2026, 10, 26, 10, 42).toISOString(),
        status: 'finished',
      },
      now,
    );
    const b = conversationRow(
      {
        title: 'Add a subtract function to src/math.js',
        updated: new Date(2026, 10, 26, 11, 5).toISOString(),
        status: 'waiting_for_confirmation',
      },
      now,
    );
    assert.equal(a.label, '10:42 · finished · Add a subtract function to src/math.js');
    assert.equal(b.label, '11:05 · waiting for approval · Add a subtract function to src/math.js');
    // What a 300 px sidebar shows (about 35 characters) already tells them apart.
    assert.notEqual(a.label.slice(0, 20), b.label.slice(0, 20));
  });

  it('says when it was interrupted, and names an untitled one', () => {
    const r = conversationRow(
      { title: undefined, updated: undefined, status: 'paused', interrupted: 'gone' },
      now,
    );
    assert.equal(r.label, 'paused, interrupted · New conversation');
  });

  it("a task's row leads with its name alone, its status, time and words after (a long name is whole at 300 px)", () => {
    const r = taskConversationRow(
      {
        name: 'rename-config-loader-and-callers',
        title: 'Rename the config loader and update its callers',
        updated: new Date(2026, 10, 26, 15, 46).toISOString(),
        status: 'applied',
      },
      now,
    );
    assert.equal(r.label, 'rename-config-loader-and-callers');
    assert.equal(r.description, 'applied · 15:46 · Rename the config loader and update its callers');
    const crashed = taskConversationRow(
      { name: 'fix-login', title: '', updated: undefined, status: 'paused', interrupted: 'gone' },
      now,
    );
    assert.deepEqual(crashed, {
      label: 'fix-login',
      description: 'paused, interrupted',
      status: 'paused, interrupted',
    });
  });

  it('dates an earlier day, and gives the year when it is not this one', () => {
    assert.equal(shortWhen(new Date(2026, 10, 25, 9, 7).toISOString(), now), 'Nov 25 09:07');
    assert.match(shortWhen(new Date(2025, 0, 3, 12, 0).toISOString(), now), /^2025-01-0[23]$/);
    assert.equal(shortWhen('not a time', now), '');
  });
});
