// The second line of defence behind a clean shell environment: whatever the host knows to be a
// secret (the API key the client uses, secret header values) is replaced by a marker before an
// event is appended, so it never reaches the log, the chat, an export or the next request.
import { MIN_SECRET_LENGTH } from './agent-environment';
import type { NamedSecret } from './named-secret';
import { redactUrlCredentials } from './url-secrets';

export type { NamedSecret } from './named-secret';

export function secretMarker(name: string): string {
  return `[redacted ${name}]`;
}

interface Needle {
  text: string;
  marker: string;
}

/**
 * The secret as hex (both cases) and as base64 (standard and URL-safe) at each of the three byte
 * alignments it can have inside longer encoded text: only the characters its own bits decide, so
 * the form is found whatever bytes surround the secret.
 */
export function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  const forms = [hex, hex.toUpperCase()];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const form = encoded.slice(first, end);
    forms.push(form, form.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms.filter((f) => f.length >= MIN_SECRET_LENGTH);
}

export class SecretRedactor {
  private readonly needles: readonly Needle[];

  constructor(secrets: readonly NamedSecret[]) {
    const needles = new Map<string, string>();
    for (const { name, value } of secrets) {
      if (value.length < MIN_SECRET_LENGTH) continue;
      const marker = secretMarker(name);
      // Inside a JSON string (a tool call's raw arguments) quotes and backslashes appear escaped;
      // `base64`, `xxd -p` or `od` in the agent's shell turn it into encodings of itself.
      for (const text of [value, JSON.stringify(value).slice(1, -1), ...encodedForms(value)]) {
        if (!needles.has(text)) needles.set(text, marker);
      }
    }
    // Longest first: a secret that contains another is replaced whole.
    this.needles = [...needles]
      .map(([text, marker]) => ({ text, marker }))
      .sort((a, b) => b.text.length - a.text.length);
  }

  /** No known secret (a URL's `user:password@` is still rewritten). */
  get empty(): boolean {
    return this.needles.length === 0;
  }

  redactText(text: string): string {
    // Credentials first: a known password inside them would otherwise leave the user name behind.
    let out = redactUrlCredentials(text);
    for (const n of this.needles) if (out.includes(n.text)) out = out.split(n.text).join(n.marker);
    return out;
  }

  /**
   * Text that may be JSON, such as a tool call's raw `arguments`: a secret written with escapes
   * (`\u0073k-...`, `\/`) is not in the text as such. Parsed, the values are redacted and written
   * again; text that does not parse is also read with its `\uXXXX` escapes decoded.
   */
  redactJsonText(text: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const decoded = decodeJsonEscapes(text);
      const redacted = this.redactText(decoded);
      return redacted !== decoded ? redacted : this.redactText(text);
    }
    const redacted = this.walk(parsed);
    return redacted === parsed ? this.redactText(text) : JSON.stringify(redacted);
  }

  /** A JSON-like value with every string (and key) redacted; the very same value when none held a secret. */
  redactValue<T>(value: T): T {
    return this.walk(value) as T;
  }

  /**
   * How many characters at the end of `text` could be the start of a secret: a streamed chunk may
   * end in the middle of one, so those are held back until the next chunk shows what follows.
   */
  heldBackLength(text: string): number {
    let longest = 0;
    for (const { text: secret } of this.needles) {
      // Earliest start first, so the first match is the longest.
      for (let p = Math.max(0, text.length - secret.length + 1); p < text.length - longest; p++) {
        if (text[p] === secret[0] && secret.startsWith(text.slice(p))) {
          longest = text.length - p;
          break;
        }
      }
    }
    return longest;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.redactText(value);
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, i) => {
        const r = this.walk(item);
        if (r !== item) (copy ??= [...value])[i] = r;
      });
      return copy ?? value;
    }
    if (value !== null && typeof value === 'object') {
      let changed = false;
      const entries = Object.entries(value).map(([k, v]) => {
        const key = this.redactText(k);
        // A tool call's raw arguments, wherever an event carries one.
        const r = k === 'arguments' && typeof v === 'string' ? this.redactJsonText(v) : this.walk(v);
        if (key !== k || r !== v) changed = true;
        return [key, r] as const;
      });
      return changed ? Object.fromEntries(entries) : value;
    }
    return value;
  }
}

/** `\uXXXX`, `\/` and the other JSON escapes of a text that is not valid JSON, decoded where found. */
function decodeJsonEscapes(text: string): string {
  const simple: Record<string, string> = {
    '\\': '\\',
    '/': '/',
    '"': '"',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
  };
  return text.replace(
    /\\(?:u([0-9a-fA-F]{4})|([\\/"bfnrt]))/g,
    (_, hex: string | undefined, c: string | undefined) =>
      hex ? String.fromCharCode(parseInt(hex, 16)) : simple[c!]!,
  );
}
