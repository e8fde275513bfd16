// A web page as Markdown the model reads well: parsed by linkedom (a small DOM), its main content
// picked by Readability (Firefox's reader view) when it finds one, converted by Turndown. Links and
// images point to absolute URLs, so the model can fetch them. Scripts, styles and forms go.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
// The browser build: it takes the DOM it is given and leaves out the HTML parser of its own the
// Node build carries (a second DOM the bundle does not need).
import TurndownService from 'turndown/lib/turndown.browser.cjs.js';

export interface PageMarkdown {
  title?: string;
  markdown: string;
}

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
  const document = parse(html);
  for (const el of document.querySelectorAll(DROPPED.join(','))) el.remove();
  absolutize(document, pageUrl);
  const title = document.querySelector('title')?.textContent?.trim() || undefined;
  const bodyText = (document.body?.textContent ?? '').replace(/\s+/g, ' ').trim();
  // Readability changes the document it reads: it gets a copy.
  const article = new Readability(parse(document.toString()) as never, {
    charThreshold: 200,
    keepClasses: true,
  }).parse();
  const articleText = (article?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const useArticle =
    article?.content && articleText.length > 0 && articleText.length >= bodyText.length * MIN_ARTICLE_SHARE;
  const source = useArticle ? article.content! : (document.body?.innerHTML ?? html);
  const markdown = converter()
    .turndown(parse(`<!doctype html><html><body>${source}</body></html>`).body as never)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const named = article?.title?.trim() || title;
  return { ...(named ? { title: named } : {}), markdown };
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
