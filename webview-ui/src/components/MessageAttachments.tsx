// What a user message carried besides its text: each attachment as a collapsed line (its header;
// the text the model saw inside) and images as thumbnails. Stored images are asked of the host;
// only image data URLs are ever put in an <img>.
import { attachmentParts } from '../lib/attachment-parts';
import { arr, obj } from '../lib/fields';
import { images, requestImage } from '../state/mentions';
import type { Row } from '../state/store';
import { shownConversation } from '../state/store';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { t } from '../lib/text';

const MAX_SHOWN = 100_000;
const SAFE_IMAGE = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/;
const STORED = /^logbook-image:[0-9a-f]{64}\.(png|jpg|webp|gif)$/;

export function imageUrls(content: unknown): string[] {
  return arr(content).flatMap((c) =>
    obj(c)?.type === 'image' ? arr(obj(c)?.image_urls).filter((u): u is string => typeof u === 'string') : [],
  );
}

export function MessageAttachments({ row, content }: { row: Row; content: unknown }) {
  const parts = attachmentParts(content);
  const urls = imageUrls(content);
  if (parts.length === 0 && urls.length === 0) return null;
  return (
    <div class="message-attachments">
      {urls.length > 0 && (
        <div class="message-images">
          {urls.slice(0, 20).map((url, i) => (
            <Thumbnail key={`${i}:${url.slice(0, 80)}`} url={url} />
          ))}
        </div>
      )}
      {parts.map((p, i) => (
        <Collapsible
          key={i}
          id={`${row.event.id}:attachment:${i}`}
          row={row}
          class="message-attachment"
          label={
            <>
              <Icon name="attach" /> {p.title.slice(0, 300)}
            </>
          }
        >
          {() => <pre class="attachment-body">{p.body.slice(0, MAX_SHOWN)}</pre>}
        </Collapsible>
      ))}
    </div>
  );
}

/** One image: a data URL as it is, a stored image as the host serves it, anything else a placeholder. */
export function Thumbnail({ url }: { url: string }) {
  const conversation = shownConversation();
  let src: string | null | undefined;
  if (SAFE_IMAGE.test(url)) src = url;
  else if (STORED.test(url)) {
    src = images.value.get(url);
    if (src === undefined && conversation) requestImage(conversation, url);
  } else src = null;
  if (src && !SAFE_IMAGE.test(src)) src = null;
  if (src === undefined)
    return <span class="message-image pending" role="img" aria-label={t('attachedImageLoading')} />;
  if (src === null)
    return (
      <span class="message-image missing" role="img" aria-label={t('attachedImageMissing')}>
        <Icon name="file-media" />
      </span>
    );
  return <img class="message-image" src={src} alt={t('attachedImage')} />;
}
