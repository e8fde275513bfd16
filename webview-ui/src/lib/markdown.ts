// Markdown for messages and thoughts: marked renders, DOMPurify sanitizes the result. Raw HTML in the
// source is shown as text (never parsed), images become links (the CSP would block them anyway), code
// blocks are highlighted, and only http(s)/mailto/in-page links survive. Results are cached by text.
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { escapeHtml, highlight } from './highlight';

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    code: ({ text, lang }: Tokens.Code) => {
      const language = (lang ?? '').match(/^[\w+#-]*/)?.[0] ?? '';
      return `<pre class="code"><code class="language-${escapeHtml(language)}">${highlight(text, language)}</code></pre>`;
    },
    image: ({ href, text }: Tokens.Image) => `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`,
    checkbox: ({ checked }: Tokens.Checkbox) =>
      `<span class="codicon codicon-${checked ? 'pass' : 'circle-large-outline'}" aria-label="${checked ? 'done' : 'to do'}"></span> `,
  },
});

const purify = DOMPurify(window);
const SAFE_URL = /^(?:https?:|mailto:|#)/i;

purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_URL.test(href.trim())) node.removeAttribute('href');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  // Code blocks scroll sideways: keyboard users must be able to focus them to scroll.
  if (node.nodeName === 'PRE') node.setAttribute('tabindex', '0');
});

const CONFIG = {
  ALLOWED_TAGS: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'em',
    'del',
    's',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'span',
  ],
  ALLOWED_ATTR: ['href', 'title', 'class', 'start', 'align', 'aria-label'],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: SAFE_URL,
};

/** Sanitizes HTML this module produced; exported for tests of the sanitizer itself. */
export function sanitize(html: string): string {
  return purify.sanitize(html, CONFIG);
}

/** Texts longer than this are shown as plain preformatted text (markdown of megabytes would stall). */
const MAX_MARKDOWN = 200_000;
const cache = new Map<string, string>();
const CACHE_LIMIT = 400;

export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html =
    text.length > MAX_MARKDOWN
      ? `<pre class="code">${escapeHtml(text)}</pre>`
      : sanitize(marked.parse(text, { async: false }).trim());
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(text, html);
  return html;
}
