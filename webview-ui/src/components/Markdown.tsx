// Sanitized markdown (see lib/markdown): the only place the view sets innerHTML.
import { renderMarkdown } from '../lib/markdown';

export function Markdown({ text, class: cls }: { text: string; class?: string }) {
  return (
    <div
      class={`markdown${cls ? ` ${cls}` : ''}`}
      dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }}
    />
  );
}
