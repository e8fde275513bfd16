// session.json in a conversation directory: what `approve`/`reject` need to continue a run in
// another process (the workspace above all). Holds no secret. Not named meta.json: the segment
// log keeps its own meta.json in the same directory.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../../core/schema/lazy-schema';
import { writeFileDurable } from '../../../core/log/durable-file';

export const SESSION_FILE = 'session.json';

const SessionInfoSchema = lazySchema(() =>
  z.object({
    format: z.literal('logbook-cli-session'),
    version: z.literal(1),
    id: z.string().min(1),
    /** Absolute path of the workspace the agent works in. */
    workspace: z.string().min(1),
    confirmation: z.enum(['never', 'risky', 'always']),
    max_iterations: z.number().int().positive().nullable(),
    /** Absent in files written before the cap existed. */
    max_tool_calls_per_reply: z.number().int().positive().nullable().optional(),
    model: z.string().min(1).nullable(),
    /**
     * The endpoint the run talked to, without any credentials its URL carried; approve, reject and
     * resolve go there again. Absent in files written before it was recorded.
     */
    base_url: z.string().min(1).nullable().optional(),
    /** The run talked to the built-in demo model, which approve, reject and resolve start again. */
    demo: z.boolean().optional(),
    /** Absolute path of the --mcp-config file of the run; approve/reject start the same servers. */
    mcp_config: z.string().min(1).nullable().optional(),
    /** The conversation's title as last noted (what an editor's session list shows); absent: none yet. */
    title: z.string().min(1).optional(),
    created_at: z.string(),
  }),
);

export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export function newSessionInfo(fields: Omit<SessionInfo, 'format' | 'version' | 'created_at'>): SessionInfo {
  return { format: 'logbook-cli-session', version: 1, ...fields, created_at: new Date().toISOString() };
}

export function writeSessionInfo(dir: string, info: SessionInfo): void {
  writeDurableUnlessSame(join(dir, SESSION_FILE), JSON.stringify(info, null, 2) + '\n');
}

/**
 * Writes `text` durably unless the file holds it already: a run that continues a conversation
 * records the same settings each time, and each durable write costs two syncs.
 */
export function writeDurableUnlessSame(file: string, text: string): void {
  let held: string | undefined;
  try {
    held = readFileSync(file, 'utf8');
  } catch {
    held = undefined;
  }
  if (held !== text) writeFileDurable(file, text);
}

/** undefined when the directory has no session.json; throws when it has a damaged one. */
export function readSessionInfo(dir: string): SessionInfo | undefined {
  const file = join(dir, SESSION_FILE);
  if (!existsSync(file)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  const r = SessionInfoSchema.safeParse(json);
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`${file} is damaged: ${problems.join('; ')}`);
  }
  return r.data;
}

/** Keeps the conversation's title in its session.json (for lists that should not read the log). */
export function noteTitle(dir: string, title: string | null): void {
  const info = readSessionInfo(dir);
  if (!info || !title || info.title === title) return;
  writeSessionInfo(dir, { ...info, title });
}
