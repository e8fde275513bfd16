// The model writes Markdown for the chat panel; a terminal shows it as typed. These are the marks a
// terminal would show as noise (emphasis, inline code, headings, links), taken out so the words read.
/** `text` with Markdown emphasis, inline code marks and heading marks removed; links as "text (url)". */
export function terminalText(text: string): string {
  return text
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    .replace(/__([^_\n]+)__/g, '$1')
    .replace(/(^|[\s(])\*([^*\s][^*\n]*?)\*(?=[\s.,;:!?)]|$)/gm, '$1$2')
    .replace(/(^|[\s(])_([^_\s][^_\n]*?)_(?=[\s.,;:!?)]|$)/gm, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/\[([^\]\n]+)\]\((\S+?)\)/g, '$1 ($2)')
    .replace(/^#{1,6}\s+/gm, '');
}
