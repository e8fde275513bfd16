// Notices agent definitions that appear or change while an action of a conversation runs. What the
// folders hold when the session opens, and again when each action starts, is the baseline: a change
// between actions is the user's (their editor, New Agent…), as the sandbox takes changes between
// commands. After each action, and whenever the agent names an agent it does not have, the folders
// are read again and any file new or changed since is held (held-definitions.ts) until the user
// accepts it. With the sandbox on, a command cannot write either folder at all (`.logbook` is held
// read-only and Logbook's config folder hidden): what writes them during an action is a file tool.
import type { HeldDefinition } from '../../../core/agents/definition-trust';
import type { Env } from '../config-dir';
import { definitionFiles } from './agent-files';
import { definitionName, fileFingerprint, holdDefinitions, readHeldDefinitions } from './held-definitions';

export class DefinitionWatch {
  private readonly baseline: Map<string, string>;

  constructor(private readonly opts: { workspace: string; env: Env; trusted: boolean }) {
    this.baseline = this.scan();
  }

  /** An action starts: what the folders hold now was not written by it. */
  refresh(): void {
    for (const [file, fingerprint] of this.scan()) this.baseline.set(file, fingerprint);
  }

  /** Holds the definitions written since the baseline; returns those it held now. */
  check(): HeldDefinition[] {
    const now = this.scan();
    const fresh: HeldDefinition[] = [];
    for (const [file, fingerprint] of now) {
      if (this.baseline.get(file) === fingerprint) continue;
      this.baseline.set(file, fingerprint);
      fresh.push({ name: definitionName(file), origin: file, fingerprint });
    }
    holdDefinitions(this.opts.env, fresh);
    return fresh;
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
      const fp = fileFingerprint(file);
      if (fp !== null) out.set(file, fp);
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
