// The composer's attachments: what each chip shows, and reading a pasted or dropped image into the
// base64 the protocol carries (checked here for type and size; the host checks the bytes again).
import type { Attachment, MentionItem } from '../../../src/protocol/messages';
import { t } from './text';

export interface Chip {
  key: string;
  attachment: Attachment;
  label: string;
  icon: string;
  /** Data URL of a pasted image, for its preview. */
  thumb?: string;
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

let counter = 0;
const key = () => `chip-${++counter}`;

const ICONS: Record<MentionItem['kind'], string> = {
  file: 'file',
  folder: 'folder',
  selection: 'selection',
  problems: 'warning',
  terminal: 'terminal',
  diff: 'git-compare',
  url: 'link',
  resource: 'plug',
  prompt: 'comment-discussion',
};

export function mentionIcon(kind: MentionItem['kind']): string {
  return ICONS[kind];
}

/** The chip for a completion the user picked. */
export function chipFor(item: MentionItem): Chip {
  const attachment: Attachment = (() => {
    switch (item.kind) {
      case 'file':
      case 'folder':
        return { kind: item.kind, path: item.path ?? item.label };
      case 'problems':
        return item.path ? { kind: 'problems', path: item.path } : { kind: 'problems' };
      case 'url':
        return { kind: 'url', url: item.path ?? item.label };
      case 'resource':
        return { kind: 'resource', server: item.server ?? '', uri: item.path ?? item.label };
      case 'prompt':
        return { kind: 'prompt', server: item.server ?? '', name: item.path ?? item.label };
      default:
        return { kind: item.kind };
    }
  })();
  return { key: key(), attachment, label: item.label, icon: ICONS[item.kind] };
}

/** The icon of an attachment's chip, by its kind. */
export function attachmentIcon(a: Attachment): string {
  return a.kind === 'image' ? 'file-media' : ICONS[a.kind];
}

/** The image type of a chip's preview (`data:image/png;base64,...`), if it has one. */
export function thumbType(chip: Chip): string | undefined {
  const type = /^data:([^;,]+);base64,/.exec(chip.thumb ?? '')?.[1];
  return type && IMAGE_TYPES.includes(type) ? type : undefined;
}

/** A chip again from what was saved of it (a reloaded panel): a new key, its icon and preview rebuilt. */
export function restoredChip(attachment: Attachment, label: string, type?: string): Chip {
  const thumb =
    attachment.kind === 'image' && type && IMAGE_TYPES.includes(type)
      ? `data:${type};base64,${attachment.data}`
      : undefined;
  return { key: key(), attachment, label, icon: attachmentIcon(attachment), ...(thumb ? { thumb } : {}) };
}

/** What the message text gets where the mention was typed: a readable reference to the chip. */
export function mentionToken(item: MentionItem): string {
  switch (item.kind) {
    case 'file':
    case 'folder':
    case 'url':
      return item.path ?? item.label;
    case 'problems':
      return item.path ? `problems:${item.path}` : 'problems';
    case 'resource':
      return item.label.replace(/\s+/g, '-');
    case 'prompt':
      return item.path ?? item.label;
    default:
      return item.kind;
  }
}

/** A file dropped from the explorer (a URI): shown by its last two path segments. */
export function fileChip(uri: string): Chip | undefined {
  if (!/^[a-z][a-z0-9+.-]+:\/\//i.test(uri) || uri.length > 4096) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(new URL(uri).pathname);
  } catch {
    return undefined;
  }
  const parts = path.split('/').filter(Boolean);
  return {
    key: key(),
    attachment: { kind: 'file', path: uri },
    label: parts.slice(-2).join('/') || uri,
    icon: 'file',
  };
}

export type ImageRead = { ok: true; chip: Chip } | { ok: false; error: string };

export async function imageChip(file: File): Promise<ImageRead> {
  const name = file.name || t('pastedImage');
  if (!IMAGE_TYPES.includes(file.type)) return { ok: false, error: t('notAnImage', name) };
  if (file.size > MAX_IMAGE_BYTES)
    return {
      ok: false,
      error: t('imageTooLarge', name, (file.size / 1024 / 1024).toFixed(1)),
    };
  const data = toBase64(new Uint8Array(await file.arrayBuffer()));
  return {
    ok: true,
    chip: {
      key: key(),
      attachment: { kind: 'image', data, name: name.slice(0, 300) },
      label: name,
      icon: 'file-media',
      thumb: `data:${file.type};base64,${data}`,
    },
  };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** URIs in a drop: VS Code's own list first (the explorer), then the standard one. */
export function droppedUris(data: DataTransfer): string[] {
  const list = data.getData('application/vnd.code.uri-list') || data.getData('text/uri-list');
  return list
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}
