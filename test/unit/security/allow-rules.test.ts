import assert from 'node:assert/strict';
import fc from 'fast-check';
import { matchAllowRules, parseAllowRule } from '../../../src/core/security';

const RULES = ['npm test', 'npm run lint', 'git commit', 'make'];

describe('allow rules', () => {
  const allowed = (command: string, rules = RULES) =>
    matchAllowRules(command, rules, { roots: ['/work/project'] });

  it('match by whole-word prefix', () => {
    assert.equal(allowed('npm test').allowed, true);
    assert.equal(allowed('npm test -- --grep x').allowed, true);
    assert.deepEqual(allowed('npm test -- --grep x').matchedRules, ['npm test']);
    assert.equal(allowed('npm testing').allowed, false);
    assert.equal(allowed('npm').allowed, false);
    assert.equal(allowed('npx npm test').allowed, false);
  });

  it('require every sub-command to be allowed or harmless on its own', () => {
    assert.equal(allowed('npm test && rm -rf /').allowed, false);
    assert.deepEqual(allowed('npm test && rm -rf /').blocked, ['rm -rf /']);
    assert.equal(allowed('npm test; curl x | sh').allowed, false);
    assert.equal(allowed('npm test $(rm -rf ~)').allowed, false);
    assert.equal(allowed('npm test `touch x; npm publish`').allowed, false);
    assert.equal(allowed('cd sub && npm test 2>&1 | tail -20').allowed, true, 'cd and tail are LOW');
    assert.equal(allowed('npm test && npm run lint').allowed, true);
    assert.equal(allowed('ls && pwd').allowed, false, 'no rule was used: nothing was allowed');
  });

  it('do not cover wrappers, dangerous variables or HIGH redirections', () => {
    assert.equal(allowed('sudo npm test').allowed, false);
    assert.equal(allowed('bash -c "npm test"').allowed, false);
    assert.equal(allowed('CI=1 npm test').allowed, true);
    assert.equal(allowed('LD_PRELOAD=evil.so npm test').allowed, false);
    assert.equal(allowed('npm test > test.log').allowed, true);
    assert.equal(allowed('npm test > ~/.bashrc').allowed, false);
    assert.equal(allowed('npm test "unclosed').allowed, false);
  });

  it('accept only plain command prefixes as rules', () => {
    assert.deepEqual(parseAllowRule('git  commit'), ['git', 'commit']);
    assert.deepEqual(parseAllowRule('"my tool" --flag'), ['my tool', '--flag']);
    for (const rule of ['', 'npm test && ls', 'echo $(x)', 'cat > f', 'a | b'])
      assert.equal(parseAllowRule(rule), undefined, rule);
    assert.equal(
      allowed('npm test', ['npm test; rm -rf /']).allowed,
      false,
      'an invalid rule allows nothing',
    );
  });

  const ALLOWED = ['npm test', 'npm test -- --watch=false', 'npm run lint', 'git commit -m wip', 'make -j4'];
  const HARMLESS = ['ls', 'pwd', 'echo ok', 'git status', 'cat README.md'];
  const NOT_ALLOWED = [
    'rm -rf build',
    'npm publish',
    'curl -s x',
    'git push',
    'node script.js',
    'sudo make',
    'npm testing',
  ];
  const JOIN = [' && ', ' || ', '; ', ' | ', '\n', ' & '];

  it('never allow a command containing a sub-command that is not allowed, wherever it hides (property)', () => {
    const hide: ((inner: string, outer: string) => string)[] = [
      (inner, outer) => `${outer} $( ${inner})`,
      (inner, outer) => `${outer} "$( ${inner})"`,
      (inner, outer) => `${outer} \`${inner}\``,
      (inner) => `(${inner})`,
      (inner) => `{ ${inner}; }`,
      (inner) => `if true; then ${inner}; fi`,
      (inner, outer) => `${outer} <(${inner})`,
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...ALLOWED, ...HARMLESS), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...NOT_ALLOWED),
        fc.nat(),
        fc.constantFrom(...JOIN),
        fc.option(fc.tuple(fc.nat(hide.length - 1), fc.constantFrom(...ALLOWED))),
        (parts, bad, position, join, hiding) => {
          const badPart = hiding ? hide[hiding[0]]!(bad, hiding[1]) : bad;
          const all = [...parts];
          all.splice(position % (parts.length + 1), 0, badPart);
          return !allowed(all.join(join)).allowed;
        },
      ),
      { numRuns: 400 },
    );
  });

  it('allow any composition of allowed and harmless commands that uses a rule (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALLOWED),
        fc.array(fc.constantFrom(...ALLOWED, ...HARMLESS), { maxLength: 4 }),
        fc.constantFrom(' && ', '; ', ' || ', '\n'),
        (first, rest, join) => allowed([first, ...rest].join(join)).allowed,
      ),
    );
  });
});
