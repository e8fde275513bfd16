// The agent definitions Logbook saw appear or change while a conversation ran, kept until the user
// accepts them (definition-trust.ts): `held-agent-definitions.json` in the Logbook config folder,
// beside the trust list. Both hosts read and write it, so a definition an agent wrote in the
// editor is held in the CLI too; the sandbox hides the folder and the file tools write only in the
// workspace, so the agent cannot accept its own definition.
import fs from 'node:fs';
import path from 'node:path';
import { parseAgentDefinition } from '../../../core/agents/definition';
import { definitionFingerprint, type HeldDefinition } from '../../../core/agents/definition-trust';
import { removeStaleTempFiles, tempsOf } from '../../../core/log/durable-file';
import { type Env, logbookConfigDir } from '../config-dir';

export function heldDefinitionsPath(env: Env): string {
  return path.join(logbookConfigDir(env), 'held-agent-definitions.json');
}

/** The held definitions by file; a file that is not such a list is an error, never an empty list. */
export function readHeldDefinitions(env: Env): Map<string, HeldDefinition> {
  const file = heldDefinitionsPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
  const bad = () =>
    new Error(
      `${file} is not Logbook's list of held agent definitions ({"held":[{"name","origin","fingerprint"}]}); ` +
        'no agent definition is used until it is repaired or removed.',
    );
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw bad();
  }
  const held = (v as { held?: unknown } | null)?.held;
  if (!Array.isArray(held)) throw bad();
  const out = new Map<string, HeldDefinition>();
  for (const h of held as unknown[]) {
    const { name, origin, fingerprint } = (h ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof origin !== 'string' || typeof fingerprint !== 'string')
      throw bad();
    out.set(origin, { name, origin, fingerprint });
  }
  return out;
}

function writeHeldDefinitions(env: Env, held: ReadonlyMap<string, HeldDefinition>): void {
  const file = heldDefinitionsPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  removeStaleTempFiles(path.dirname(file), tempsOf(path.basename(file)));
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ held: [...held.values()] }, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Holds these definitions (as they are now) until the user accepts them. */
export function holdDefinitions(env: Env, list: readonly HeldDefinition[]): void {
  if (list.length === 0) return;
  const held = readHeldDefinitions(env);
  for (const h of list) held.set(h.origin, h);
  writeHeldDefinitions(env, held);
}

/**
 * The user accepts a held definition: the file is used again as it is. `fingerprint`, when given,
 * is the content the user was shown; a file changed since is not accepted (they did not see it).
 */
export function acceptHeldDefinition(env: Env, origin: string, fingerprint?: string): HeldDefinition {
  const held = readHeldDefinitions(env);
  const h = held.get(origin);
  if (!h) throw new Error(`${origin} is not held: nothing to accept.`);
  const now = fileFingerprint(origin);
  if (now === null) throw new Error(`${origin} is gone: nothing to accept.`);
  if (fingerprint !== undefined && now !== fingerprint)
    throw new Error(`${origin} changed since it was shown: read it again before accepting it.`);
  held.delete(origin);
  writeHeldDefinitions(env, held);
  return { ...h, fingerprint: now };
}

/** The fingerprint of a file's content now, or null when it cannot be read. */
export function fileFingerprint(file: string): string | null {
  try {
    return definitionFingerprint(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The name a definition file gives its agent, or the file's own name when it does not parse. */
export function definitionName(file: string): string {
  try {
    const parsed = parseAgentDefinition(fs.readFileSync(file, 'utf8'), file);
    if (parsed.ok) return parsed.agent.name;
  } catch {
    // Unreadable: named by the file.
  }
  return path.basename(file, '.md');
}
