// Any other observation: its text for the model, marked when it is an error, and its images as
// thumbnails: file_editor viewing a PNG (stored with the conversation) or an MCP tool's result
// (data URLs). SVG can carry script, so it and other kinds are only counted.
import { contentText, type Json } from '../lib/fields';
import type { Row } from '../state/store';
import { Icon } from './Icon';
import { OutputBlock } from './OutputBlock';
import { imageUrls, Thumbnail } from './MessageAttachments';
import { t, tn } from '../lib/text';

/** Images shown per result; the rest are counted. */
const MAX_IMAGES = 4;
const SHOWABLE = /^(data:image\/(png|jpeg|gif|webp|bmp);base64,|logbook-image:)/i;

export function GenericResult({ obs, id, row }: { obs: Json; id: string; row?: Row }) {
  const all = imageUrls(obs.content);
  const shown = all.filter((u) => SHOWABLE.test(u)).slice(0, MAX_IMAGES);
  const hidden = all.length - shown.length;
  const error = obs.is_error === true;
  return (
    <div class="generic-result">
      {error && (
        <div class="result-note tone-error">
          <Icon name="error" />
          <span>{t('toolReportedError')}</span>
        </div>
      )}
      <OutputBlock
        text={contentText(obs.content)}
        id={`${id}:out`}
        row={row}
        tone={error ? 'error' : 'normal'}
      />
      {shown.length > 0 && (
        <div class="result-images message-images">
          {shown.map((url, i) => (
            <Thumbnail key={`${i}:${url.slice(0, 80)}`} url={url} />
          ))}
        </div>
      )}
      {hidden > 0 && <div class="note">{tn(hidden, 'imageNotShownOne', 'imageNotShownMany')}</div>}
    </div>
  );
}
