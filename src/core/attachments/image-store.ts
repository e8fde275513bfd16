// Images the user attached (or a tool viewed), stored once per conversation under `attachments/`,
// named by the SHA-256 of their bytes. Events reference an image by a short URL
// (`logbook-image:<sha256>.<ext>`) instead of carrying base64 in every event; the prompt projection
// loads the bytes when a request is built, and an export inlines them as data URLs.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import type { ImagePort } from '../tools/ports';
import { TMP_SUFFIX, removeStaleTempFilesOnce } from '../log/durable-file';
import { join } from 'node:path';

export const IMAGE_URL_PREFIX = 'logbook-image:';
/** Largest image accepted, in bytes (providers refuse larger ones: OpenAI 20 MB, Anthropic 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const IMAGE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
} as const;
export type ImageMime = keyof typeof IMAGE_TYPES;

const MIME_BY_EXT: Record<string, ImageMime> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};
const STORED_NAME = /^([0-9a-f]{64})\.(png|jpg|webp|gif)$/;

/**
 * The image type the bytes really are, from their magic numbers (a declared type or a file's
 * extension is not trusted); undefined for anything else.
 */
export function sniffImageMime(bytes: Uint8Array): ImageMime | undefined {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'image/gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return undefined;
}

/** The stored name a URL refers to, or undefined when it is not a stored-image URL. */
export function storedImageName(url: string): { name: string; mime: ImageMime } | undefined {
  if (!url.startsWith(IMAGE_URL_PREFIX)) return undefined;
  const name = url.slice(IMAGE_URL_PREFIX.length);
  const m = STORED_NAME.exec(name);
  return m ? { name, mime: MIME_BY_EXT[m[2]!]! } : undefined;
}

export function imageSizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export type PutResult =
  { ok: true; url: string; mime: ImageMime; bytes: number } | { ok: false; error: string };

export class ImageStore implements ImagePort {
  constructor(
    /** The conversation's folder; images go to its `attachments/` subfolder. */
    private readonly conversationDir: string,
  ) {}

  get dir(): string {
    return join(this.conversationDir, 'attachments');
  }

  /** Stores the bytes (once: the same image twice is one file) and returns the URL events use. */
  async put(bytes: Uint8Array): Promise<PutResult> {
    const mime = sniffImageMime(bytes);
    if (!mime) return { ok: false, error: 'it is not a PNG, JPEG, WebP or GIF image' };
    if (bytes.length > MAX_IMAGE_BYTES)
      return {
        ok: false,
        error: `it is ${imageSizeText(bytes.length)}, over the ${imageSizeText(MAX_IMAGE_BYTES)} an image may have`,
      };
    const name = `${createHash('sha256').update(bytes).digest('hex')}.${IMAGE_TYPES[mime]}`;
    const path = join(this.dir, name);
    const present = await stat(path).then(
      (s) => s.size === bytes.length,
      () => false,
    );
    if (!present) {
      await mkdir(this.dir, { recursive: true });
      // Another process may be storing an image here now: only old temp files go.
      removeStaleTempFilesOnce(this.dir, (n) => n.endsWith(TMP_SUFFIX));
      // Written aside and renamed, so a crash never leaves a half image under the final name.
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, path);
    }
    return { ok: true, url: IMAGE_URL_PREFIX + name, mime, bytes: bytes.length };
  }

  /** Stores an image file from disk (file_editor `view` of a PNG...); the size is checked before reading. */
  async putFile(path: string): Promise<PutResult> {
    const size = (await stat(path)).size;
    if (size > MAX_IMAGE_BYTES)
      return {
        ok: false,
        error: `it is ${imageSizeText(size)}, over the ${imageSizeText(MAX_IMAGE_BYTES)} an image may have`,
      };
    return this.put(await readFile(path));
  }

  /** The bytes behind a stored-image URL, checked against their name; undefined when missing or altered. */
  async read(url: string): Promise<{ mime: ImageMime; bytes: Buffer } | undefined> {
    const ref = storedImageName(url);
    if (!ref) return undefined;
    const bytes = await readFile(join(this.dir, ref.name)).catch(() => undefined);
    if (!bytes) return undefined;
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (!ref.name.startsWith(hash)) return undefined;
    return { mime: ref.mime, bytes };
  }

  /** The image as a data URL (what the model and the webview get), or undefined. */
  async dataUrl(url: string): Promise<string | undefined> {
    const image = await this.read(url);
    return image && `data:${image.mime};base64,${image.bytes.toString('base64')}`;
  }
}
