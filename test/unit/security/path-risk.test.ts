import assert from 'node:assert/strict';
import { pathRisk } from '../../../src/core/security';

const ROOTS = ['/work/project', '/work/second'];

describe('pathRisk', () => {
  const cases: [string, 'LOW' | 'HIGH', string?][] = [
    ['/work/project/src/index.ts', 'LOW'],
    ['src/index.ts', 'LOW'],
    ['/work/second/README.md', 'LOW'],
    ['/work/project/.env.example', 'LOW'],
    ['/etc/passwd', 'HIGH', 'outside the workspace'],
    ['/work/project-other/x', 'HIGH', 'outside the workspace'],
    ['../elsewhere/file', 'HIGH', 'outside the workspace'],
    ['/work/project/../../etc/hosts', 'HIGH', 'outside the workspace'],
    ['/work/project/.git/config', 'HIGH', '.git'],
    ['.git/hooks/pre-commit', 'HIGH', '.git'],
    ['.logbook/conversations/c1/segments/00000001.log', 'HIGH', 'conversation logs'],
    ['/work/project/.logbook/conversations/c1/session.json', 'HIGH', 'conversation logs'],
    ['/work/project/.env', 'HIGH', 'secrets'],
    ['/work/project/.env.local', 'HIGH', 'secrets'],
    ['/work/project/certs/server.pem', 'HIGH', 'secrets'],
    ['/work/project/keys/id_rsa', 'HIGH', 'secrets'],
    ['/work/project/.npmrc', 'HIGH', 'secrets'],
    ['/work/project/config/credentials.json', 'HIGH', 'secrets'],
  ];
  for (const [path, expected, reason] of cases) {
    it(`${path} is ${expected}`, () => {
      const result = pathRisk(path, ROOTS);
      assert.equal(result.risk, expected, result.reasons.join(' | '));
      if (reason)
        assert.ok(
          result.reasons.some((r) => r.includes(reason)),
          result.reasons.join(' | '),
        );
    });
  }

  it('treats everything as outside when there is no workspace', () => {
    assert.equal(pathRisk('/any/file.txt', []).risk, 'HIGH');
  });
});
