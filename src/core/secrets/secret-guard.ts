// What a Conversation holds to keep secrets out of what it records and streams: the host's
// current list (read at each use: a key set in VS Code applies at once) turned into a redactor.
import { deepFreeze } from '../events/freeze';
import type { ToolPorts } from '../tools/ports';
import { type NamedSecret, SecretRedactor } from './redact-secrets';
import { StreamRedactor, type StreamEvent } from './redact-stream';

const NONE: readonly NamedSecret[] = [];

export class SecretGuard {
  private cached: { from: readonly NamedSecret[]; redactor: SecretRedactor } | undefined;
  private readonly stream = new StreamRedactor(() => this.redactor());

  /** `secrets` should return the same array while the list does not change (it is cached by identity). */
  constructor(private readonly secrets: () => readonly NamedSecret[] = () => NONE) {}

  /** The event with every secret replaced by a marker (frozen like every event); itself if it held none. */
  event<T>(event: T): T {
    const redacted = this.redactor().redactValue(event);
    return redacted === event ? event : (deepFreeze(redacted) as T);
  }

  /**
   * The ports with the scratch folder redacted too: a long output is saved there whole (next to
   * the log) before the event that points to it is appended.
   */
  ports(ports: ToolPorts): ToolPorts {
    const redact = (text: string) => this.redactor().redactText(text);
    return {
      get files() {
        return ports.files;
      },
      get terminal() {
        return ports.terminal;
      },
      get search() {
        return ports.search;
      },
      scratch: { save: (name, text) => ports.scratch.save(name, redact(text)) },
      ...(ports.images ? { images: ports.images } : {}),
    };
  }

  /** The streamed deltas to show for `d`. */
  delta(d: StreamEvent): StreamEvent[] {
    return this.stream.push(d);
  }

  private redactor(): SecretRedactor {
    const list = this.secrets();
    if (this.cached?.from !== list) this.cached = { from: list, redactor: new SecretRedactor(list) };
    return this.cached.redactor;
  }
}
