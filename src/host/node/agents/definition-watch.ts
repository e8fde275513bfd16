// Notices agent definitions that appear or change while an action of a conversation runs. What the
// folders hold when the session opens, and again when each action starts, is the baseline: a change
// between actions is the user's (their editor, New Agent…), as the sandbox takes changes between
// commands. After each action, and whenever the agent names an agent it does not have, the folders
// are read again and any file new or changed since is held (held-definitions.ts) until the user
// accepts it. With the sandbox on, a command cannot write either folder at all (`.logbook` is held
// read-only and Logbook's config folder hidden): what writes them during an action is a file tool.
import fs from 'node:fs';
import { definitionFingerprint, type HeldDefinition } from '../../../core/agents/definition-trust';
import type { Env } from '../config-dir';
import { definitionFiles } from './agent-files';
import { definitionName, holdDefinitions, readHeldDefinitions } from './held-definitions';

export class DefinitionWatch {
  /** Each file's content as the baseline has it. */
  private readonly baseline: Map<string, string>;
  /** A held file's content before the action that changed it (none: it was new), to show the change. */
  private readonly before = new Map<string, string | null>();

  constructor(private readonly opts: { workspace: string; env: Env; trusted: boolean }) {
    this.baseline = this.scan();
  }

  /** An action starts: what the folders hold now was not written by it. */
  refresh(): void {
    for (const [file, text] of this.scan()) this.baseline.set(file, text);
  }

  /** Holds the definitions written since the baseline; returns those it held now. */
  check(): HeldDefinition[] {
    const now = this.scan();
    const fresh: HeldDefinition[] = [];
    for (const [file, text] of now) {
      const was = this.baseline.get(file);
      if (was === text) continue;
      if (!this.before.has(file)) this.before.set(file, was ?? null);
      this.baseline.set(file, text);
      fresh.push({ name: definitionName(file), origin: file, fingerprint: definitionFingerprint(text) });
    }
    holdDefinitions(this.opts.env, fresh);
    return fresh;
  }

  /**
   * What a file held before this session saw it change: its content, null when it was new, or
   * undefined when the change was not seen here.
   */
  contentBefore(file: string): string | null | undefined {
    return this.before.get(file);
  }

  /** The held definition (of this workspace or the user's) that names `name`, after a fresh look. */
  held(name: string): HeldDefinition | null {
    this.check();
    const mine = new Set(definitionFiles(this.opts));
    for (const h of readHeldDefinitions(this.opts.env).values())
      if (mine.has(h.origin) && definitionName(h.origin) === name) return h;
    return null;
  }

  private scan(): Map<string, string> {
    const out = new Map<string, string>();
    for (const file of definitionFiles(this.opts)) {
      try {
        out.set(file, fs.readFileSync(file, 'utf8'));
      } catch {
        // Gone or unreadable since it was listed: nothing to hold.
      }
    }
    return out;
  }
}

/** The held definitions a conversation in `workspace` would read (its own and the user's). */
export function heldHere(env: Env, workspace: string): HeldDefinition[] {
  const mine = new Set(definitionFiles({ workspace, env, trusted: true }));
  return [...readHeldDefinitions(env).values()]
    .filter((h) => mine.has(h.origin))
    .map((h) => ({ ...h, name: definitionName(h.origin) }));
}
