// Text made safe inside HTML: element content and quoted attribute values alike. One definition
// for the host's pages and the webview's highlighter, so no page escapes differently.

/** `&`, `<`, `>`, `"` and `'` as numeric character references. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
