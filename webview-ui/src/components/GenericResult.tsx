// Any other observation: its text for the model, marked when it is an error; images are only counted.
import { contentText, imageCount, type Json } from '../lib/fields';
import { plural } from '../lib/format';
import type { Row } from '../state/store';
import { Icon } from './Icon';
import { OutputBlock } from './OutputBlock';

export function GenericResult({ obs, id, row }: { obs: Json; id: string; row?: Row }) {
  const images = imageCount(obs.content);
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
      {images > 0 && <div class="note">{plural(images, 'image')} not shown</div>}
    </div>
  );
}
