// The "Always allow" suggestion for a terminal command: its first words, enough to name the program
// and its subcommand (`npm test`, `git status`) but not its changing arguments.

const WRAPPERS = new Set(['sudo', 'env', 'time', 'nohup', 'command']);

export function commandPrefix(command: string): string {
  const first = command.trim().split(/\n|&&|\|\||;|\|/)[0] ?? '';
  const words = first.trim().split(/\s+/).filter(Boolean);
  // Skip leading VAR=value assignments and wrappers so the rule names the real program.
  while (words.length > 1 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!) || WRAPPERS.has(words[0]!)))
    words.shift();
  const out: string[] = [];
  for (const w of words) {
    if (out.length === 2 || w.startsWith('-') || /[/"'$`=<>*]/.test(w) || /^\d/.test(w)) break;
    out.push(w);
  }
  return out.join(' ') || words[0] || '';
}
