// A model's answer as the openai SDK reads it (status, headers, a body, text and json), made
// without Node's `Response`, whose first use loads Node's whole fetch stack (header-list.ts says why
// that matters). Given where `fetch` would give a Response: the CLI's model fetch and the reply's
// line cap (reply-limits.ts). Its body is chunks read as an async iterable, which the SDK reads
// as it reads a web stream (it asks for the iterator first), so no web stream is made either: Node
// loads and compiles its web streams on their first use, a cost a short run noticed.
import { HeaderList } from './header-list';

/** What a model answer's headers are read through: a HeaderList, or a fetch's own Headers. */
export interface AnswerHeaders {
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(fn: (value: string, name: string) => void): void;
  entries(): IterableIterator<[string, string]>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}

export interface ModelResponseInit {
  status: number;
  statusText?: string;
  headers?: AnswerHeaders;
  url?: string;
}

export class ModelResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: AnswerHeaders;
  readonly url: string;
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  readonly #body: AsyncIterable<Uint8Array> | null;
  #chunks: AsyncIterator<Uint8Array> | undefined;
  #read = false;

  /** `body`: the answer's bytes in chunks (a web stream is one too), or null for none. */
  constructor(body: AsyncIterable<Uint8Array> | null, init: ModelResponseInit) {
    this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.headers = init.headers ?? new HeaderList();
    this.url = init.url ?? '';
    this.ok = init.status >= 200 && init.status <= 299;
  }

  /**
   * The chunks, once: every iterator asked of it is the same one, so that the SDK's cancel (which
   * asks for an iterator to close) closes the one being read.
   */
  get body(): AsyncIterable<Uint8Array> | null {
    if (!this.#body) return null;
    const source = this.#body;
    return { [Symbol.asyncIterator]: () => (this.#chunks ??= source[Symbol.asyncIterator]()) };
  }

  get bodyUsed(): boolean {
    return this.#read || this.#chunks !== undefined;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  /** UTF-8, a leading BOM dropped and bad bytes replaced, as a Response's text(). */
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.#bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async #bytes(): Promise<Uint8Array> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#read = true;
    if (!this.#body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.#body) chunks.push(chunk);
    if (chunks.length === 1) return chunks[0]!;
    const all = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.byteLength;
    }
    return all;
  }
}
