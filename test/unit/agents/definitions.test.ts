import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  agentsPromptSection,
  EXPLORE_AGENT,
  isReadOnlyAgent,
  parseAgentDefinition,
} from '../../../src/core/agents/definition';
import { loadAgents } from '../../../src/host/node/agents/agent-files';

const file = (front: string, body = 'Do the thing.') => `---\n${front}\n---\n${body}\n`;

describe('agent definitions', () => {
  it('parses every field of the front matter, the body as instructions', () => {
    const r = parseAgentDefinition(
      file(
        [
          'name: test-runner',
          'description: "Runs the tests: reports failures"',
          'tools:',
          '  - terminal',
          '  - file_editor',
          'model: small-model',
          'mode: act',
          'max-iterations: 12',
          'max_tokens: 50000',
          'max_cost: 0.25',
          'confirmation: always',
          'allowed_hosts: [api.github.com, "*.npmjs.org"]',
          'isolation: worktree',
        ].join('\n'),
      ),
      'agents/test-runner.md',
    );
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.agent, {
      name: 'test-runner',
      description: 'Runs the tests: reports failures',
      tools: ['terminal', 'file_editor'],
      model: 'small-model',
      mode: 'act',
      maxIterations: 12,
      maxTokens: 50000,
      maxCost: 0.25,
      confirmation: 'always',
      allowedHosts: ['api.github.com', '*.npmjs.org'],
      isolation: 'worktree',
      instructions: 'Do the thing.',
      origin: 'agents/test-runner.md',
    });
  });

  it('refuses what it cannot take as given, naming the file and the field', () => {
    const cases: [string, RegExp][] = [
      ['name: x\ndescription: d\nmode: fast', /"mode" must be plan or act/],
      ['name: x\ndescription: d\nmax_iterations: 0', /"max_iterations" must be a positive whole number/],
      ['name: x\ndescription: d\nmax_iterations: 2.5', /"max_iterations"/],
      ['name: x\ndescription: d\ncolour: red', /unknown field colour/],
      ['name: main\ndescription: d', /"main" names the main agent/],
      ['name: x', /"description" is required/],
      ['name: x\ndescription: d\ntools: []', /"tools" must be a list/],
      ['name: x\nname: y\ndescription: d', /given twice/],
      ['just text', /expected "key: value"/],
      ['name: x\ndescription: d\nconfirmation: off', /"confirmation" must be always, risky or never/],
      ['name: x\ndescription: d\nallowed_hosts: [https://a.example/x]', /"allowed_hosts" must be a list/],
      ['name: x\ndescription: d\nallowed_hosts: a.example', /"allowed_hosts" must be a list/],
      ['name: x\ndescription: d\nisolation: container', /"isolation" must be worktree/],
    ];
    for (const [front, why] of cases) {
      const r = parseAgentDefinition(file(front), 'a.md');
      assert.equal(r.ok, false, front);
      if (!r.ok) {
        assert.match(r.error, /^a\.md: /);
        assert.match(r.error, why);
      }
    }
    const none = parseAgentDefinition('no front matter', 'b.md');
    assert.equal(none.ok, false);
  });

  it('read-only: plan mode, or only read-only tools', () => {
    const readOnly = new Set(['grep', 'glob', 'think', 'finish']);
    assert.equal(isReadOnlyAgent(EXPLORE_AGENT, readOnly), true);
    const act = { ...EXPLORE_AGENT, mode: 'act' as const };
    assert.equal(isReadOnlyAgent({ ...act, tools: ['grep', 'glob'] }, readOnly), true);
    assert.equal(isReadOnlyAgent({ ...act, tools: ['grep', 'terminal'] }, readOnly), false);
    assert.equal(isReadOnlyAgent({ ...act, tools: null }, readOnly), false);
  });

  it("the main agent's prompt names each agent; none: no section", () => {
    assert.equal(agentsPromptSection([]), null);
    const text = agentsPromptSection([EXPLORE_AGENT])!;
    assert.match(text, /delegate tool/);
    assert.match(text, /- explore \(read-only\): /);
  });

  it("loads the user's and the workspace's folders; a workspace's only when trusted", () => {
    const root = mkdtempSync(join(tmpdir(), 'logbook-agents-'));
    try {
      const ws = join(root, 'ws');
      const config = join(root, 'config');
      mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
      mkdirSync(join(config, 'logbook', 'agents'), { recursive: true });
      writeFileSync(join(config, 'logbook', 'agents', 'docs.md'), file('name: docs\ndescription: user docs'));
      writeFileSync(join(ws, '.logbook', 'agents', 'docs.md'), file('name: docs\ndescription: repo docs'));
      writeFileSync(join(ws, '.logbook', 'agents', 'own.md'), file('name: own\ndescription: repo only'));
      writeFileSync(
        join(ws, '.logbook', 'agents', 'typo.md'),
        file('name: typo\ndescription: d\ntools: [terminl, grep]'),
      );
      const env = { XDG_CONFIG_HOME: config };
      const trusted = loadAgents({ workspace: ws, env, trusted: true });
      assert.deepEqual(
        trusted.agents.map((a) => `${a.name}:${a.description}`),
        [`docs:repo docs`, `explore:${EXPLORE_AGENT.description}`, 'own:repo only'],
      );
      assert.equal(trusted.skippedUntrusted, null);
      assert.equal(trusted.errors.length, 1);
      assert.match(trusted.errors[0]!, /typo\.md: unknown tool terminl \(known: terminal, /);
      const untrusted = loadAgents({ workspace: ws, env, trusted: false });
      assert.deepEqual(
        untrusted.agents.map((a) => `${a.name}:${a.description}`),
        [`docs:user docs`, `explore:${EXPLORE_AGENT.description}`],
      );
      assert.equal(untrusted.skippedUntrusted, join(ws, '.logbook', 'agents'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
