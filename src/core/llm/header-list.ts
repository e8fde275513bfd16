// Header lists for the model's requests and answers that do not load Node's fetch stack: Node's
// `Headers` (and `Response`) load its whole fetch implementation on first use, about 10 ms of a
// short `logbook run`. The openai bundle builds its requests' headers with this class
// (scripts/lazy-bundles.mjs), and the CLI's model fetch answers with it (model-response.ts). It
// keeps what the SDK and the fetch it hands them to rely on: names lower-cased and checked, values
// trimmed and checked, repeated names joined with ", ", entries sorted by name, and iterable as
// [name, value] pairs (so any fetch takes it as its `headers`).

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may hold once trimmed: no NUL, CR or LF, nothing beyond one byte. */
const VALUE = /^[^\0\r\n\u0100-\uffff]*$/;
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

export type HeaderListInit =
  Iterable<readonly [string, string] | readonly string[]> | Record<string, string> | undefined | null;

export class HeaderList {
  readonly #held = new Map<string, string>();

  constructor(init?: HeaderListInit) {
    if (init === undefined || init === null) return;
    if (typeof init !== 'object') throw new TypeError('Headers: the init must be an object.');
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError('Headers: each header is a [name, value] pair.');
        this.append(pair[0]!, pair[1]!);
      }
    } else for (const [name, value] of Object.entries(init)) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const text = checkedValue(value);
    const held = this.#held.get(key);
    this.#held.set(key, held === undefined ? text : `${held}, ${text}`);
  }

  set(name: string, value: string): void {
    this.#held.set(checkedName(name), checkedValue(value));
  }

  get(name: string): string | null {
    return this.#held.get(checkedName(name)) ?? null;
  }

  has(name: string): boolean {
    return this.#held.has(checkedName(name));
  }

  delete(name: string): void {
    this.#held.delete(checkedName(name));
  }

  forEach(fn: (value: string, name: string, list: HeaderList) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) fn.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#held.keys()].sort()) yield [name, this.#held.get(name)!];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

function checkedName(name: unknown): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: ${JSON.stringify(text)} is not a valid header name.`);
  return text.toLowerCase();
}

function checkedValue(value: unknown): string {
  const text = String(value).replace(EDGE_SPACE, '');
  if (!VALUE.test(text)) throw new TypeError('Headers: a header value holds a character it may not.');
  return text;
}
