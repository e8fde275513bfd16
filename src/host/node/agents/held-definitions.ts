// The agent definitions Logbook saw appear or change while a conversation ran, kept until the user
// accepts them (definition-trust.ts): `held-agent-definitions.json` in the Logbook config folder,
// beside the trust list. Both hosts read and write it, so a definition an agent wrote in the
// editor is held in the CLI too; the sandbox hides the folder and the file tools write only in the
// workspace, so the agent cannot accept its own definition. What the user accepted is kept there too,
// with when, so a conversation opened later records the acceptance it did not see
// (accepted-definitions.ts).
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
  return readList(env).held;
}

/** The definitions the user accepted, oldest first. */
export function readAcceptedDefinitions(env: Env): AcceptedDefinition[] {
  return readList(env).accepted;
}

interface HeldList {
  held: Map<string, HeldDefinition>;
  accepted: AcceptedDefinition[];
}

function readList(env: Env): HeldList {
  const file = heldDefinitionsPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { held: new Map(), accepted: [] };
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
  const { held, accepted = [] } = (v ?? {}) as { held?: unknown; accepted?: unknown };
  if (!Array.isArray(held) || !Array.isArray(accepted)) throw bad();
  const out = new Map<string, HeldDefinition>();
  for (const h of held as unknown[]) {
    const { name, origin, fingerprint } = (h ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof origin !== 'string' || typeof fingerprint !== 'string')
      throw bad();
    out.set(origin, { name, origin, fingerprint });
  }
  const done: AcceptedDefinition[] = [];
  for (const a of accepted as unknown[]) {
    const { name, origin, fingerprint, accepted_at } = (a ?? {}) as Record<string, unknown>;
    if (
      typeof name !== 'string' ||
      typeof origin !== 'string' ||
      typeof fingerprint !== 'string' ||
      typeof accepted_at !== 'string'
    )
      throw bad();
    done.push({ name, origin, fingerprint, accepted_at });
  }
  return { held: out, accepted: done };
}

/** A definition the user accepted, and when (ISO time). */
export interface AcceptedDefinition extends HeldDefinition {
  accepted_at: string;
}

/** How many acceptances the file keeps (the newest). */
const ACCEPTED_KEPT = 200;

function writeList(env: Env, { held, accepted }: HeldList): void {
  const file = heldDefinitionsPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  removeStaleTempFiles(path.dirname(file), tempsOf(path.basename(file)));
  const tmp = `${file}.${process.pid}.tmp`;
  const kept = accepted.slice(-ACCEPTED_KEPT);
  fs.writeFileSync(tmp, JSON.stringify({ held: [...held.values()], accepted: kept }, null, 2) + '\n', {
    mode: 0o600,
  });
  fs.renameSync(tmp, file);
}

/** Holds these definitions (as they are now) until the user accepts them. */
export function holdDefinitions(env: Env, list: readonly HeldDefinition[]): void {
  if (list.length === 0) return;
  const all = readList(env);
  for (const h of list) all.held.set(h.origin, h);
  writeList(env, all);
}

/**
 * The user accepts a held definition: the file is used again as it is. `fingerprint`, when given,
 * is the content the user was shown; a file changed since is not accepted (they did not see it).
 */
export function acceptHeldDefinition(env: Env, origin: string, fingerprint?: string): AcceptedDefinition {
  const all = readList(env);
  const h = all.held.get(origin);
  if (!h) throw new Error(`${origin} is not held: nothing to accept.`);
  const now = fileFingerprint(origin);
  if (now === null) throw new Error(`${origin} is gone: nothing to accept.`);
  if (fingerprint !== undefined && now !== fingerprint)
    throw new Error(`${origin} changed since it was shown: read it again before accepting it.`);
  all.held.delete(origin);
  const accepted: AcceptedDefinition = { ...h, fingerprint: now, accepted_at: new Date().toISOString() };
  all.accepted.push(accepted);
  writeList(env, all);
  return accepted;
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
