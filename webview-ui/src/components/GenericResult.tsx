// Any other observation: its text for the model, marked when it is an error, and its images
// (file_editor viewing a PNG) as thumbnails.
import { contentText, type Json } from '../lib/fields';
import type { Row } from '../state/store';
import { Icon } from './Icon';
import { OutputBlock } from './OutputBlock';
import { imageUrls, Thumbnail } from './MessageAttachments';

export function GenericResult({ obs, id, row }: { obs: Json; id: string; row?: Row }) {
  const images = imageUrls(obs.content);
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
      {images.length > 0 && (
        <div class="message-images">
          {images.slice(0, 20).map((url, i) => (
            <Thumbnail key={`${i}:${url.slice(0, 80)}`} url={url} />
          ))}
        </div>
      )}
    </div>
  );
}
