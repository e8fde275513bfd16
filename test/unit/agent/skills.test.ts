import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from '../../../src/core/events';
import {
  alwaysOnSkills,
  loadSkills,
  parseSkill,
  renderSkill,
  triggeredSkills,
  type Skill,
} from '../../../src/core/skills/skills';
import { buildSystemPrompt } from '../../../src/core/agent/system-prompt';
import { NodeFilePort } from '../../../src/host/node/ports';
import { createHarness, type Harness } from '../../support/agent-harness';

const skill = (name: string, triggers: string[], content = `${name} body`): Skill => ({
  name,
  triggers,
  content,
  source: `.logbook/skills/${name}.md`,
});

describe('skills: parseSkill', () => {
  it('reads name and a list of triggers, lower-cased and unquoted', () => {
    const s = parseSkill(
      [
        '---',
        'name: docker-helper',
        'version: 1.0.0',
        'triggers:',
        '  - Docker',
        '  - "Compose File"',
        "  - 'container'",
        'agent: CodeActAgent',
        '---',
        '',
        'Use `docker compose up -d`.',
        '',
      ].join('\n'),
      '.openhands/microagents/docker.md',
    );
    assert.deepEqual(s, {
      name: 'docker-helper',
      triggers: ['docker', 'compose file', 'container'],
      content: 'Use `docker compose up -d`.',
      source: '.openhands/microagents/docker.md',
    });
  });

  it('reads inline triggers', () => {
    const s = parseSkill('---\ntriggers: [Deploy, "Release Notes", \'ship it\']\n---\nbody', 'x/deploy.md');
    assert.deepEqual(s.triggers, ['deploy', 'release notes', 'ship it']);
    assert.equal(s.name, 'deploy', 'the file name without .md when the frontmatter has no name');
    assert.equal(s.content, 'body');
  });

  it('keeps list items of other keys out of the triggers', () => {
    const s = parseSkill(
      '---\ntriggers:\n  - lint\ninputs:\n  - name: file\n---\nRun eslint.',
      '.logbook/skills/lint.md',
    );
    assert.deepEqual(s.triggers, ['lint']);
  });

  it('takes a file without frontmatter as an always-on skill named after the file', () => {
    const s = parseSkill('\n# Repo notes\n\nTests: npm test\n\n', '.logbook/skills/repo.md');
    assert.deepEqual(s, {
      name: 'repo',
      triggers: [],
      content: '# Repo notes\n\nTests: npm test',
      source: '.logbook/skills/repo.md',
    });
    assert.deepEqual(alwaysOnSkills([s]), [s]);
  });

  it('takes frontmatter with a name and no triggers as always on', () => {
    const s = parseSkill('---\nname: "Style guide"\n---\nTwo spaces.', 'x/style.md');
    assert.equal(s.name, 'Style guide');
    assert.deepEqual(s.triggers, []);
    assert.equal(s.content, 'Two spaces.');
  });

  it('reads CRLF files like LF ones', () => {
    const lf = '---\nname: crlf\ntriggers:\n  - Windows\n  - PowerShell\n---\nLine one\nLine two\n';
    const crlf = parseSkill(lf.replace(/\n/g, '\r\n'), 'x/crlf.md');
    assert.equal(crlf.name, 'crlf');
    assert.deepEqual(crlf.triggers, ['windows', 'powershell']);
    assert.equal(crlf.content.replace(/\r\n/g, '\n'), 'Line one\nLine two');
    assert.ok(!crlf.content.includes('---'));
    const inline = parseSkill('---\r\ntriggers: [A, B]\r\n---\r\nbody\r\n', 'x/i.md');
    assert.deepEqual(inline.triggers, ['a', 'b']);
    assert.equal(inline.content, 'body');
  });

  it('reads frontmatter after a byte-order mark', () => {
    const s = parseSkill('\uFEFF---\nname: bom\ntriggers: [bom]\n---\nbody', 'x/b.md');
    assert.equal(s.name, 'bom');
    assert.deepEqual(s.triggers, ['bom']);
    assert.equal(s.content, 'body');
  });

  it('never keeps an empty trigger, which would match every message', () => {
    const s = parseSkill('---\ntriggers:\n  - deploy\n  - ""\n  -  \n---\nbody', 'x/e.md');
    assert.deepEqual(s.triggers, ['deploy']);
    assert.deepEqual(triggeredSkills([s], 'hello there', []), []);
    const inline = parseSkill("---\ntriggers: [deploy, '', ]\n---\nbody", 'x/f.md');
    assert.deepEqual(inline.triggers, ['deploy']);
  });

  it('takes a single scalar trigger as one trigger instead of making the skill always on', () => {
    const s = parseSkill('---\ntriggers: Kubernetes\n---\nUse kubectl.', 'x/k8s.md');
    assert.deepEqual(s.triggers, ['kubernetes']);
    assert.deepEqual(alwaysOnSkills([s]), []);
  });

  it('clips very long skills', () => {
    const s = parseSkill(`---\nname: big\n---\n${'x'.repeat(25_000)}`, 'x/big.md');
    assert.ok(s.content.length < 20_100);
    assert.match(s.content, /truncated\]$/);
  });
});

describe('skills: loadSkills from a workspace', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-skills-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('loads AGENTS.md, .openhands/microagents and .logbook/skills, in that order', async () => {
    writeFileSync(join(root, 'AGENTS.md'), '# Agents\nRun `npm test` before committing.\n');
    mkdirSync(join(root, '.openhands/microagents'), { recursive: true });
    mkdirSync(join(root, '.logbook/skills/nested.md'), { recursive: true }); // a directory: skipped
    writeFileSync(join(root, '.openhands/microagents/x.md'), '---\ntriggers:\n  - Xylophone\n---\nX body');
    writeFileSync(join(root, '.openhands/microagents/notes.txt'), 'not a skill');
    writeFileSync(join(root, '.logbook/skills/y.md'), '---\nname: why\ntriggers: [yak]\n---\nY body');
    writeFileSync(join(root, '.logbook/skills/a.md'), 'Always A.');
    const skills = await loadSkills(new NodeFilePort([root]), root);
    assert.deepEqual(
      skills.map((s) => [s.name, s.source, s.triggers, s.content]),
      [
        ['AGENTS.md', 'AGENTS.md', [], '# Agents\nRun `npm test` before committing.\n'],
        ['x', '.openhands/microagents/x.md', ['xylophone'], 'X body'],
        ['a', '.logbook/skills/a.md', [], 'Always A.'],
        ['why', '.logbook/skills/y.md', ['yak'], 'Y body'],
      ],
    );
  });

  it('returns nothing for a workspace without skills, and skips a blank AGENTS.md', async () => {
    assert.deepEqual(await loadSkills(new NodeFilePort([root]), root), []);
    writeFileSync(join(root, 'AGENTS.md'), '  \n\n');
    assert.deepEqual(await loadSkills(new NodeFilePort([root]), root), []);
  });
});

describe('skills: triggeredSkills and the system prompt', () => {
  const skills = [
    skill('docker', ['docker', 'compose file']),
    skill('always', []),
    skill('k8s', ['kubectl']),
  ];

  it('matches triggers case-insensitively, anywhere in the message', () => {
    assert.deepEqual(
      triggeredSkills(skills, 'Fix the DOCKER build', []).map((s) => s.name),
      ['docker'],
    );
    assert.deepEqual(
      triggeredSkills(skills, 'edit the Compose File and run KubeCtl', []).map((s) => s.name),
      ['docker', 'k8s'],
    );
    assert.deepEqual(triggeredSkills(skills, 'nothing relevant', []), []);
  });

  it('skips skills that are already active', () => {
    assert.deepEqual(
      triggeredSkills(skills, 'docker and kubectl', ['docker']).map((s) => s.name),
      ['k8s'],
    );
  });

  it('puts always-on skills, and only those, into the system prompt', () => {
    const prompt = buildSystemPrompt({ cwd: '/ws', platform: 'linux', skills, toolsEnabled: true });
    assert.ok(prompt.includes(renderSkill(skills[1]!)));
    assert.ok(!prompt.includes('docker body'));
    assert.ok(!prompt.includes('k8s body'));
  });
});

describe('skills: through the agent loop', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-skills-loop-'));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  const messageEvents = (events: readonly Event[]) =>
    events.filter((e): e is Extract<Event, { kind: 'MessageEvent' }> => e.kind === 'MessageEvent');

  it('sends AGENTS.md in the system prompt and a triggered skill once, with the message that mentions it', async () => {
    writeFileSync(join(root, 'AGENTS.md'), 'AGENTS-NOTE: the test command is `make check`.');
    mkdirSync(join(root, '.logbook/skills'), { recursive: true });
    writeFileSync(
      join(root, '.logbook/skills/docker.md'),
      '---\nname: docker-helper\ntriggers:\n  - docker\n---\nDOCKER-SKILL: build with `docker buildx`.',
    );
    const skills = await loadSkills(new NodeFilePort([root]), root);
    h = await createHarness(
      {
        name: 'skills',
        turns: [
          { match: { lastContentIncludes: 'DOCKER-SKILL' }, reply: { content: 'Noted.' } },
          { match: { lastContentIncludes: 'again' }, reply: { content: 'Still noted.' } },
        ],
      },
      {},
      { skills },
    );
    const c = await h.open();
    await c.sendMessage('Please fix the Docker build');
    assert.equal(await c.run(), 'finished');
    await c.sendMessage('docker again, please');
    assert.equal(await c.run(), 'finished');

    const [first, second] = h.llm.completionBodies() as { messages: { role: string; content: unknown }[] }[];
    const system = first!.messages[0]!;
    assert.equal(system.role, 'system');
    assert.ok(String(system.content).includes('AGENTS-NOTE: the test command is `make check`.'));
    assert.ok(!String(system.content).includes('DOCKER-SKILL'), 'a triggered skill is not always on');

    const user1 = JSON.stringify(first!.messages.at(-1));
    assert.ok(user1.includes('Please fix the Docker build'));
    assert.ok(user1.includes('DOCKER-SKILL: build with `docker buildx`.'));
    // The second request replays the first message with its skill, but the new one adds nothing.
    const users = second!.messages.filter((m) => m.role === 'user');
    assert.equal(users.length, 2);
    assert.ok(JSON.stringify(users[1]).includes('docker again'));
    assert.ok(!JSON.stringify(users[1]).includes('DOCKER-SKILL'));
    assert.equal(JSON.stringify(second!.messages).split('DOCKER-SKILL').length - 1, 1);

    const userEvents = messageEvents(await c.events()).filter((m) => m.source === 'user');
    assert.deepEqual(
      userEvents.map((m) => m.activated_skills),
      [['docker-helper'], []],
    );
    assert.deepEqual(c.state.activatedSkills, ['docker-helper']);
  });

  it('keeps a skill active across a restart, so it is not added again', async () => {
    const skills = [skill('deploy', ['deploy'], 'DEPLOY-SKILL')];
    h = await createHarness(
      { name: 'skills-restart', turns: [], fallback: { content: 'ok' } },
      {},
      { skills },
    );
    const store1 = await h.persistentStore();
    const first = await h.open({ store: store1 });
    await first.sendMessage('deploy it');
    assert.equal(await first.run(), 'finished');
    await store1.close();
    const second = await h.open({ store: await h.persistentStore() });
    assert.deepEqual(second.state.activatedSkills, ['deploy']);
    await second.sendMessage('deploy it again');
    assert.equal(await second.run(), 'finished');
    const last = h.llm.completionBodies().at(-1)!.messages as unknown[];
    assert.equal(JSON.stringify(last).split('DEPLOY-SKILL').length - 1, 1);
  });
});
