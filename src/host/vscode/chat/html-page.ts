// The one builder of the extension's webview pages (the chat, Diagnostics): a strict CSP with the
// load's nonce (no inline script or style without it, no eval, nothing fetched or framed), the
// theme's stylesheets, and every interpolated value escaped. Pure, so tests serve the same page.
import { escapeHtml } from '../../../core/text/html-escape';

export interface PageCsp {
  /** `webview.cspSource`: the origin allowed for styles, fonts and (when `images`) images. */
  cspSource: string;
  nonce: string;
  /** Allow images from `cspSource` and data: URLs. */
  images?: boolean;
  /** Allow the page's one inline <style> (it carries the nonce). */
  inlineStyle?: boolean;
}

export function contentSecurityPolicy(c: PageCsp): string {
  return [
    `default-src 'none'`,
    ...(c.images ? [`img-src ${c.cspSource} data:`] : []),
    `font-src ${c.cspSource}`,
    `style-src ${c.cspSource}${c.inlineStyle ? ` 'nonce-${c.nonce}'` : ''}`,
    `script-src 'nonce-${c.nonce}'`,
    `connect-src 'none'`,
    `frame-src 'none'`,
    `form-action 'none'`,
    `base-uri 'none'`,
  ].join('; ');
}

export interface HtmlPage {
  csp: PageCsp;
  /** The display language, e.g. `zh-cn`. */
  lang: string;
  title: string;
  stylesheets: readonly string[];
  /** CSS of the page's one inline <style>; needs `csp.inlineStyle`. */
  style?: string;
  /** Attributes of <body>, escaped here. */
  bodyAttributes?: Readonly<Record<string, string>>;
  /** The body's markup, already escaped by its author. */
  body: string;
  /** A script file to load, or the page's one inline script. */
  script: { src: string } | { inline: string };
}

export function htmlPage(p: HtmlPage): string {
  const { nonce } = p.csp;
  const attributes = Object.entries(p.bodyAttributes ?? {})
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  const script =
    'src' in p.script
      ? `<script nonce="${nonce}" src="${escapeHtml(p.script.src)}"></script>`
      : `<script nonce="${nonce}">\n${p.script.inline}\n</script>`;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(p.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(p.csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${p.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n')}
${p.style !== undefined ? `<style nonce="${nonce}">\n${p.style}\n</style>\n` : ''}<title>${escapeHtml(p.title)}</title>
</head>
<body${attributes}>
${p.body}
${script}
</body>
</html>`;
}
