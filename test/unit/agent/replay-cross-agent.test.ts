// A remote conversation's replay compares the server's tool results with Logbook's by what both
// state: a command's output as words with its exit code, another tool's result by how it ended.
import * as assert from 'node:assert/strict';
import { crossAgentForm } from '../../../src/core/agent/replay-cross-agent';
import type { Event } from '../../../src/core/events';

function observation(tool: string, text: string, extra: Record<string, unknown> = {}): Event {
  return {
    kind: 'ObservationEvent',
    id: 'o1',
    timestamp: '2026-01-01T00:00:00Z',
    source: 'environment',
    tool_name: tool,
    tool_call_id: 'c1',
    action_id: 'a1',
    observation: { kind: 'X', content: [{ type: 'text', text }], ...extra },
  } as unknown as Event;
}

describe('replay across agents (a remote conversation)', () => {
  it("a command's output is its words and exit code, however the terminal laid it out", () => {
    const server = observation('terminal', 'ONE\ntwo\na.txt  b.txt', { exit_code: 0 });
    const logbook = observation(
      'terminal',
      'ONE\ntwo\na.txt\nb.txt\n[The command completed with exit code 0.]',
      { exit_code: 0 },
    );
    assert.equal(crossAgentForm(server), crossAgentForm(logbook));
    assert.notEqual(
      crossAgentForm(server),
      crossAgentForm(observation('terminal', 'ONE\ntwo', { exit_code: 0 })),
    );
    assert.notEqual(
      crossAgentForm(server),
      crossAgentForm(observation('terminal', 'ONE\ntwo\na.txt b.txt', { exit_code: 1 })),
    );
  });

  it("another tool's result is how it ended, not its sentences", () => {
    const server = observation('file_editor', 'The file a.txt has been edited.');
    const logbook = observation('file_editor', 'Edited a.txt. The edited part now reads:');
    assert.equal(crossAgentForm(server), crossAgentForm(logbook));
    assert.notEqual(
      crossAgentForm(server),
      crossAgentForm(observation('file_editor', 'No replacement was performed.', { is_error: true })),
    );
    assert.equal(crossAgentForm({ kind: 'UserRejectObservation' } as unknown as Event), 'rejected');
    assert.equal(crossAgentForm({ kind: 'AgentErrorEvent' } as unknown as Event), 'error');
  });
});
