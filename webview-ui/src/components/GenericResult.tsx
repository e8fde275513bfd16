// Any other observation: its text for the model, marked when it is an error, and the images it
// carries as data URLs (an MCP tool's result); others are only counted.
import { arr, contentText, imageCount, obj, str, type Json } from '../lib/fields';
import { plural } from '../lib/format';
import type { Row } from '../state/store';
import { Icon } from './Icon';
import { OutputBlock } from './OutputBlock';

/** Images shown per result; the rest are counted. */
const MAX_IMAGES = 4;

/** The data URLs of raster images in the content (SVG can carry script, so it is not shown). */
function imageUrls(content: unknown): string[] {
  const urls = arr(content).flatMap((c) => (obj(c)?.type === 'image' ? arr(obj(c)?.image_urls) : []));
  return urls
    .map((u) => str(u) ?? '')
    .filter((u) => /^data:image\/(png|jpeg|gif|webp|bmp);base64,/i.test(u))
    .slice(0, MAX_IMAGES);
}

export function GenericResult({ obs, id, row }: { obs: Json; id: string; row?: Row }) {
  const shown = imageUrls(obs.content);
  const images = imageCount(obs.content) - shown.length;
  const error = obs.is_error === true;
  return (
    <div class="generic-result">
      {error && (
        <div class="result-note tone-error">
          <Icon name="error" />
          <span>The tool reported an error</span>
        </div>
      )}
      <OutputBlock
        text={contentText(obs.content)}
        id={`${id}:out`}
        row={row}
        tone={error ? 'error' : 'normal'}
      />
      {shown.length > 0 && (
        <div class="result-images">
          {shown.map((url, i) => (
            <img key={i} src={url} alt={`Image ${i + 1} returned by the tool`} />
          ))}
        </div>
      )}
      {images > 0 && <div class="note">{plural(images, 'image')} not shown</div>}
    </div>
  );
}
