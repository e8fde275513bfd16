// Repository knowledge the agent should know: `AGENTS.md` at the root (always on), and skill files
// under `.openhands/microagents/` and `.logbook/skills/`. A skill file with `triggers:` in its
// frontmatter is added only to the user message that mentions a trigger; one without triggers is
// always on and goes into the system prompt.
import { join } from 'node:path';
import type { FilePort } from '../tools/ports';

export interface Skill {
  name: string;
  /** Lower-cased words or phrases that activate the skill; empty = always on. */
  triggers: string[];
  content: string;
  source: string;
}

const SKILL_DIRS = ['.openhands/microagents', '.logbook/skills'];
const MAX_SKILL_CHARS = 20_000;

export async function loadSkills(files: FilePort, root: string): Promise<Skill[]> {
  const skills: Skill[] = [];
  const agentsMd = await files.readText(join(root, 'AGENTS.md')).catch(() => undefined);
  if (agentsMd?.trim())
    skills.push({ name: 'AGENTS.md', triggers: [], content: clip(agentsMd), source: 'AGENTS.md' });
  for (const dir of SKILL_DIRS) {
    const abs = join(root, dir);
    const entries = await files.list(abs).catch(() => [] as string[]);
    for (const name of entries.filter((n) => n.endsWith('.md')).sort()) {
      const text = await files.readText(join(abs, name)).catch(() => undefined);
      if (text === undefined) continue;
      skills.push(parseSkill(text, `${dir}/${name}`));
    }
  }
  return skills;
}

/** Parses the small YAML subset skill files use: `name:`, and `triggers:` as a list, an inline array or one value. */
export function parseSkill(text: string, source: string): Skill {
  const fallbackName = source.split('/').pop()!.replace(/\.md$/, '');
  // Editors on Windows may save a byte-order mark, which would hide the frontmatter.
  text = text.replace(/^\uFEFF/, '');
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { name: fallbackName, triggers: [], content: clip(text.trim()), source };
  const front = m[1]!;
  const body = text.slice(m[0].length).trim();
  let name = fallbackName;
  const triggers: string[] = [];
  let inTriggers = false;
  for (const line of front.split(/\r?\n/)) {
    const key = /^(\w[\w-]*):\s*(.*)$/.exec(line);
    if (key) {
      inTriggers = key[1] === 'triggers';
      const value = key[2]!.trim();
      if (key[1] === 'name' && value) name = unquote(value);
      if (inTriggers && value.startsWith('[')) {
        triggers.push(...value.slice(1, value.lastIndexOf(']')).split(',').map(unquote));
        inTriggers = false;
      } else if (inTriggers && value) {
        // `triggers: deploy`, a single trigger; ignoring it would make the skill always on.
        triggers.push(unquote(value));
        inTriggers = false;
      }
      continue;
    }
    const item = /^\s*-\s*(.+)$/.exec(line);
    if (inTriggers && item) triggers.push(unquote(item[1]!.trim()));
  }
  // An empty trigger (`- ""`, a dash with trailing spaces) would match every message.
  const words = triggers.map((t) => t.toLowerCase()).filter((t) => t.trim() !== '');
  return { name, triggers: words, content: clip(body), source };
}

/** Skills whose triggers appear in the message (case-insensitive), skipping those already active. */
export function triggeredSkills(
  skills: readonly Skill[],
  message: string,
  alreadyActive: readonly string[],
): Skill[] {
  const text = message.toLowerCase();
  return skills.filter(
    (s) =>
      s.triggers.length > 0 && !alreadyActive.includes(s.name) && s.triggers.some((t) => text.includes(t)),
  );
}

export function alwaysOnSkills(skills: readonly Skill[]): Skill[] {
  return skills.filter((s) => s.triggers.length === 0);
}

export function renderSkill(skill: Skill): string {
  return `<skill name="${skill.name}" source="${skill.source}">\n${skill.content}\n</skill>`;
}

function unquote(s: string): string {
  return s.trim().replace(/^["']|["']$/g, '');
}

function clip(s: string): string {
  return s.length > MAX_SKILL_CHARS ? `${s.slice(0, MAX_SKILL_CHARS)}\n[… truncated]` : s;
}
