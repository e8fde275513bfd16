// What "Allow always" allows for a terminal command: its program and subcommand (`npm test`,
// `git status`), never its changing arguments, so the rule names a kind of command, not one call.

/** Words that run another program: the rule names that program instead. */
const WRAPPERS = new Set(['sudo', 'env', 'time', 'nohup', 'command']);

export function commandPrefix(command: string): string {
  const firstCommand = command.trim().split(/\n|&&|\|\||;|\|/)[0] ?? '';
  const words = firstCommand.trim().split(/\s+/).filter(Boolean);
  while (words.length > 1 && (/^[A-Za-z_]\w*=/.test(words[0]!) || WRAPPERS.has(words[0]!))) words.shift();
  const kept: string[] = [];
  for (const w of words) {
    // An option, a path, a quoted or computed word, a number: where the changing part begins.
    if (kept.length === 2 || w.startsWith('-') || /[/"'$`=<>*]/.test(w) || /^\d/.test(w)) break;
    kept.push(w);
  }
  return kept.join(' ');
}
