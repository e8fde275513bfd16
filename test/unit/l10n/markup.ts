// What a translation must carry over unchanged: command links, inline code, `{0}`-style
// placeholders, `$(icon)` references and `#setting#` links. Returned sorted, so word order may change.
export function markupOf(text: string): string[] {
  const found = [
    ...text.matchAll(/\]\((command:[^)]*|https?:[^)]*)\)/g),
    ...text.matchAll(/`[^`]+`/g),
    ...text.matchAll(/\{\d+\}/g),
    ...text.matchAll(/\$\([\w~-]+\)/g),
    ...text.matchAll(/#[\w.]+#/g),
  ].map((m) => m[1] ?? m[0]);
  return found.sort();
}
