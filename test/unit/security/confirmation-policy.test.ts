import assert from 'node:assert/strict';
import {
  type ActionForReview,
  analyzeAction,
  type ConfirmationPolicy,
  needsConfirmation,
} from '../../../src/core/security';

const ROOTS = ['/work/project'];

function action(toolName: string, args: Record<string, unknown>, readOnly = false): ActionForReview {
  return { toolName, readOnly, args, analysis: analyzeAction(toolName, args, ROOTS) };
}

const ls = action('terminal', { command: 'ls', security_risk: 'LOW' });
const npmTest = action('terminal', { command: 'npm test', security_risk: 'LOW' });
const wipe = action('terminal', { command: 'rm -rf /', security_risk: 'LOW' });
const unrated = action('file_editor', { command: 'create', path: 'x.ts' });
const unratedTool = action('mcp_thing', {});
const grep = action('grep', { pattern: 'x', path: 'src' }, true);
const grepEtc = action('grep', { pattern: 'root', path: '/etc' }, true);
const grepShadow = action('grep', { pattern: 'root', path: '/etc/shadow' }, true);
const globHome = action('glob', { pattern: '*', path: '/work/project/../../home' }, true);
const grepKey = action('grep', { pattern: 'BEGIN', path: '/home/someone/.ssh/id_rsa' }, true);
const think = action('think', { thought: 'x' }, true);

function decide(policy: ConfirmationPolicy, actions: ActionForReview[]) {
  return needsConfirmation({ roots: ROOTS, ...policy }, actions).map((d) => d.confirm);
}

describe('needsConfirmation', () => {
  it('never: nothing waits', () => {
    assert.deepEqual(decide({ mode: 'never' }, [ls, wipe, unratedTool]), [false, false, false]);
  });

  it('always: everything but read-only tools inside the workspace waits', () => {
    assert.deepEqual(decide({ mode: 'always' }, [ls, npmTest, grep, think, grepEtc, grepShadow, globHome]), [
      true,
      true,
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('read-only tools ask in risky mode when they read outside the workspace, whatever the threshold', () => {
    assert.deepEqual(decide({ mode: 'risky' }, [grep, think, grepEtc, grepShadow, globHome]), [
      false,
      false,
      true,
      true,
      true,
    ]);
    // Reading inside the workspace never asks, even with the LOW threshold.
    assert.deepEqual(decide({ mode: 'risky', threshold: 'LOW' }, [grep, think]), [false, false]);
    assert.deepEqual(decide({ mode: 'risky', threshold: 'HIGH' }, [grepEtc, grepShadow, grepKey]), [
      false,
      false,
      true,
    ]);
    assert.deepEqual(decide({ mode: 'never' }, [grepShadow]), [false]);
    const [shadow] = needsConfirmation({ mode: 'risky' }, [grepShadow]);
    assert.match(shadow!.reason, /^MEDIUM risk: reads \/etc\/shadow, private data/);
  });

  it('risky: waits from the threshold (default MEDIUM) up, and when the risk is unknown', () => {
    assert.deepEqual(decide({ mode: 'risky' }, [ls, npmTest, wipe, unrated, unratedTool, grep]), [
      false,
      true,
      true,
      false,
      true,
      false,
    ]);
    assert.deepEqual(decide({ mode: 'risky', threshold: 'HIGH' }, [ls, npmTest, wipe]), [false, false, true]);
    assert.deepEqual(decide({ mode: 'risky', threshold: 'LOW' }, [ls]), [true]);
  });

  it('allow rules approve matching commands in risky and always modes, but never a HIGH rule rating', () => {
    const rules = ['npm test', 'rm -rf'];
    assert.deepEqual(decide({ mode: 'risky', allowRules: rules }, [npmTest, wipe]), [false, true]);
    assert.deepEqual(decide({ mode: 'always', allowRules: rules }, [npmTest, ls]), [false, true]);
    const [decision] = needsConfirmation({ mode: 'risky', allowRules: rules }, [npmTest]);
    assert.match(decision!.reason, /allowed by "npm test"/);
    assert.deepEqual(decision!.matchedRules, ['npm test']);
  });

  it('explains each decision with the risk and its reasons', () => {
    const [risky] = needsConfirmation({ mode: 'risky' }, [wipe]);
    assert.equal(risky!.risk, 'HIGH');
    assert.match(risky!.reason, /^HIGH risk: deletes \//);
    const [readOnly] = needsConfirmation({ mode: 'always' }, [grep]);
    assert.equal(readOnly!.reason, 'grep is read-only and reads inside the workspace');
  });
});
