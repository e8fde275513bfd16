// A web page as Markdown the model reads well: parsed by linkedom (a small DOM), its main content
// picked by Readability (Firefox's reader view) when it finds one (else the page's <main>, or its
// body without navigation), converted by Turndown. Links and
// images point to absolute URLs, so the model can fetch them. Scripts, styles and forms go.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
// The browser build: it takes the DOM it is given and leaves out the HTML parser of its own the
// Node build carries (a second DOM the bundle does not need).
import TurndownService from 'turndown/lib/turndown.browser.cjs.js';

export interface PageMarkdown {
  title?: string;
  markdown: string;
  /** The HTML was longer than MAX_HTML_CHARS (after scripts and styles went) and was cut there. */
  cut: boolean;
}

/**
 * Most HTML characters converted. Parsing and converting run on the host's thread, so this bounds
 * the pause: about two seconds for this much dense markup on one core.
 */
export const MAX_HTML_CHARS = 500_000;
/** Pages with more elements skip the reader view (see readerView). */
const READER_VIEW_MAX_ELEMENTS = 3_000;

const DROPPED = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'form',
];

/** Readability's article, unless it kept less than this share of the page's text (then the whole body). */
const MIN_ARTICLE_SHARE = 0.25;

/** The part of linkedom's DOM used here (the project's TypeScript has no DOM library). */
interface Element {
  textContent: string | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
}
interface Document {
  body: Element | null;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): Iterable<Element>;
  toString(): string;
}

function parse(html: string): Document {
  return (parseHTML(html) as unknown as { document: Document }).document;
}

export function pageMarkdown(html: string, pageUrl: string): PageMarkdown {
  // The conversion runs on the host's thread, so its cost is bounded: what a reader never sees is
  // cut before parsing, and what is left is read up to MAX_HTML_CHARS.
  const light = withoutHeavyParts(html);
  const cut = light.length > MAX_HTML_CHARS;
  const document = parse(cut ? light.slice(0, MAX_HTML_CHARS) : light);
  for (const el of document.querySelectorAll(DROPPED.join(','))) el.remove();
  absolutize(document, pageUrl);
  const title = document.querySelector('title')?.textContent?.trim() || undefined;
  const article = readerView(document);
  // Readability's article is HTML to parse again; otherwise the page's own part is converted as it is.
  const root = article
    ? parse(`<!doctype html><html><body>${article.content}</body></html>`).body
    : mainPart(document);
  const markdown = root
    ? converter()
        .turndown(root as never)
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : '';
  const named = article?.title || title;
  return { ...(named ? { title: named } : {}), markdown, cut };
}

/** Readability's article, when the page is small enough for it and the article is most of it. */
function readerView(document: Document): { title?: string; content: string } | undefined {
  // Readability walks the tree many times: past this many elements it costs seconds.
  if ([...document.querySelectorAll('*')].length > READER_VIEW_MAX_ELEMENTS) return undefined;
  const bodyText = (document.body?.textContent ?? '').replace(/\s+/g, ' ').trim();
  // Readability changes the document it reads: it gets a copy.
  const article = new Readability(parse(document.toString()) as never, {
    charThreshold: 200,
    keepClasses: true,
  }).parse();
  const articleText = (article?.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (
    !article?.content ||
    articleText.length === 0 ||
    articleText.length < bodyText.length * MIN_ARTICLE_SHARE
  )
    return undefined;
  const title = article.title?.trim();
  return { ...(title ? { title } : {}), content: article.content };
}

/** Without the reader view: the page's <main> or <article>, else its body without navigation. */
function mainPart(document: Document): Element | null {
  const main = document.querySelector('main, [role="main"], article');
  if (main) return main;
  for (const el of document.querySelectorAll('nav, header, footer, aside')) el.remove();
  return document.body;
}

/** Scripts, styles, inline SVG and comments, removed from the text before it is parsed. */
function withoutHeavyParts(html: string): string {
  return html
    .replace(/<(script|style|svg|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '');
}

function converter(): TurndownService {
  const t = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  // A fenced block keeps its language (class="language-x" or "lang-x") and its text as it is.
  t.addRule('fencedWithLanguage', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const el = node as unknown as { textContent: string | null; querySelector(s: string): unknown };
      const code = el.querySelector('code') as { className?: string } | null;
      const classes = `${code?.className ?? ''} ${(node as unknown as { className?: string }).className ?? ''}`;
      const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? '';
      const text = (el.textContent ?? '').replace(/\n$/, '');
      const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });
  return t;
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

/** Relative href/src made absolute against the page; javascript: links dropped. */
function absolutize(document: Document, pageUrl: string): void {
  const base = document.querySelector('base[href]')?.getAttribute('href');
  let root = pageUrl;
  try {
    if (base) root = new URL(base, pageUrl).href;
  } catch {
    // a bad <base> is ignored
  }
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of document.querySelectorAll(selector)) {
      const value = el.getAttribute(attr) ?? '';
      if (/^\s*javascript:/i.test(value)) {
        el.removeAttribute(attr);
        continue;
      }
      try {
        el.setAttribute(attr, new URL(value, root).href);
      } catch {
        // left as it is
      }
    }
  }
}
