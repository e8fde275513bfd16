// Logbook's own rating of an action an agent-server holds: the local gate's rules, judged against
// the working folder on the server's machine, shown beside the server's rating.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  readRemoteOrigin,
  remoteRisk,
  remoteRiskText,
  writeRemoteOrigin,
} from '../../../src/host/node/remote/remote-risk';
import { reportLines, stateReport } from '../../../src/host/node/cli/state-report';
import { deriveState } from '../../../src/core/state';
import type { ActionEvent, Event } from '../../../src/core/events';

const terminal = (command: string, risk = 'LOW'): Record<string, unknown> => ({
  kind: 'ActionEvent',
  tool_name: 'terminal',
  security_risk: risk,
  action: { kind: 'TerminalAction', command },
  tool_call: { name: 'terminal', arguments: JSON.stringify({ command, security_risk: risk }) },
});

describe('remote risk', () => {
  it('a command the server rated LOW that deletes the home folder is HIGH by Logbook, with why', () => {
    const r = remoteRisk(terminal('rm -rf ~'), '/srv/project');
    assert.equal(r.server, 'LOW');
    assert.equal(r.logbook, 'HIGH');
    assert.ok(r.reasons.length > 0);
    const text = remoteRiskText(r);
    assert.match(text, /^risk \(server\) LOW; risk \(Logbook\) HIGH: /);
  });

  it('a listing is LOW, as the local gate rates it; an edit of the git hooks is HIGH', () => {
    assert.equal(remoteRisk(terminal('ls -la'), '/srv/project').logbook, 'LOW');
    const hook: Record<string, unknown> = {
      kind: 'ActionEvent',
      tool_name: 'file_editor',
      security_risk: 'MEDIUM',
      action: { kind: 'FileEditorAction', command: 'create', path: '/srv/project/.git/hooks/pre-commit' },
    };
    const r = remoteRisk(hook, '/srv/project');
    assert.equal(r.server, 'MEDIUM');
    assert.equal(r.logbook, 'HIGH');
  });

  it('an action without a rating says UNKNOWN for the server; a tool Logbook has no rules for says so', () => {
    const r = remoteRisk({ kind: 'ActionEvent', tool_name: 'browser', action: {} }, '/srv/project');
    assert.equal(r.server, 'UNKNOWN');
    assert.equal(r.logbook, 'UNKNOWN');
    assert.match(r.reasons.join(' '), /no rules for the tool browser/);
  });

  it('the reasons are printed escaped (they quote what the model chose)', () => {
    const text = remoteRiskText({ server: 'LOW', logbook: 'HIGH', reasons: ['writes a\u001b[2Jb'] });
    assert.doesNotMatch(text, /\u001b/);
  });

  it('the folder records where it runs; a folder without it is local', () => {
    const dir = mkdtempSync(join(tmpdir(), 'remote-origin-'));
    try {
      assert.equal(readRemoteOrigin(dir), undefined);
      writeRemoteOrigin(dir, { server: 'http://h:1', conversation_id: 'c1', working_dir: '/srv/p' });
      assert.deepEqual(readRemoteOrigin(dir), {
        server: 'http://h:1',
        conversation_id: 'c1',
        working_dir: '/srv/p',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('show: a held action of a remote conversation', () => {
  const action = {
    timestamp: '2026-01-01T00:00:00Z',
    source: 'agent',
    kind: 'ActionEvent',
    id: 'a1',
    thought: [],
    action: { kind: 'TerminalAction', command: 'rm -rf ~' },
    tool_name: 'terminal',
    tool_call_id: 'call_a1',
    tool_call: {
      id: 'call_a1',
      name: 'terminal',
      arguments: JSON.stringify({ command: 'rm -rf ~', security_risk: 'LOW' }),
      origin: 'completion',
    },
    llm_response_id: 'r1',
    security_risk: 'LOW',
    received_from: { server: 'http://build:8000', at: '2026-01-01T00:00:01Z' },
  } as unknown as ActionEvent;
  const origin = { server: 'http://build:8000', conversation_id: 'c1', working_dir: '/srv/project' };

  function report(remote?: typeof origin) {
    const state = deriveState([action as unknown as Event]);
    return stateReport(state, new Map([['a1', action]]), {
      id: 'c1',
      dir: '/nowhere/c1',
      workspace: '/nowhere',
      corrupt: 0,
      diffs: true,
      ...(remote ? { remote } : {}),
    });
  }

  it('gives the server rating and Logbook own, with why, in JSON and as text', () => {
    const r = report(origin);
    const held = r.pending_actions[0]!;
    assert.deepEqual(held.remote, { server: origin.server, server_risk: 'LOW', logbook_risk: 'HIGH' });
    assert.equal(held.risk, 'HIGH');
    assert.equal(held.model_risk, 'LOW');
    assert.ok(held.reasons.length > 0);
    assert.equal(held.diff, null);
    const line = reportLines(r).find((l) => l.includes('a1'))!;
    assert.match(line, /\(risk \(server\) LOW; risk \(Logbook\) HIGH: .+\)/);
  });

  it('a local conversation keeps its one combined rating', () => {
    const r = report();
    assert.equal(r.pending_actions[0]!.remote, null);
    assert.match(
      reportLines(r).find((l) => l.includes('a1'))!,
      /\(risk HIGH: /,
    );
  });
});
