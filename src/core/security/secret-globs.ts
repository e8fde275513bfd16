// Secret paths written as globs, braces or with variables in them: `~/.ss?/id_*`,
// `~/.config/logbook/signing-key?pem`, `~/.{aws,x}/cred*`. The shell expands them to the secret, so
// they are judged like the secret itself: each folder part that could match a credentials folder,
// and a last part with some literal text that could match a secret name, count. A last part that
// is only wildcards (`*`) is not taken for a secret: it names every file alike.
import {
  SECRET_CONFIG_DIRS,
  SECRET_DIRS,
  SECRET_EXTENSIONS,
  SECRET_NAME_EXAMPLES,
  secretReason,
} from './sensitive-paths';
import { expandBraces, globRegex } from './shell-paths';
import { PLACEHOLDER } from './shell-scan';

const WILD = /[*?[]|\$|__LBSUB_\d+__|\{/;

/** Why `word`, as the shell expands it, may name a secret; undefined when it cannot. */
export function secretReasonOfWord(word: string): string | undefined {
  const literal = secretReason(word);
  if (literal) return literal;
  for (const candidate of expandBraces(word)) {
    const reason = secretReason(candidate) ?? (WILD.test(candidate) ? globSecret(candidate) : undefined);
    if (reason) return `${word} can expand to a secret: ${reason}`;
  }
  return undefined;
}

function globSecret(path: string): string | undefined {
  // A variable, substitution or unexpanded brace stands for any text within its part.
  const parts = path
    .replace(/\$\{[^}]*\}|\$\w+|\$\$|\{[^}]*\}/g, '*')
    .replace(new RegExp(PLACEHOLDER.source, 'g'), '*')
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  const matches = (part: string | undefined, names: readonly string[]) =>
    part === undefined ? undefined : names.find((n) => globRegex(part).test(n));
  for (let i = 0; i < parts.length; i++) {
    const dir = matches(parts[i], SECRET_DIRS);
    if (dir && (i < parts.length - 1 || parts[i] !== dir))
      return `it can match the credentials folder ${dir}/`;
    if (matches(parts[i], ['.config']) && matches(parts[i + 1], SECRET_CONFIG_DIRS))
      return `it can match the credentials folder .config/${matches(parts[i + 1], SECRET_CONFIG_DIRS)}/`;
  }
  const last = parts[parts.length - 1] ?? '';
  if (!/[A-Za-z0-9]/.test(last.replace(/\[[^\]]*\]/g, ''))) return undefined;
  const examples = [...extensionCandidates(last)];
  // `*.json` names every JSON file alike: an example such as credentials.json counts only when the
  // glob has literal text before its extension (`cred*.json`) or has no extension at all (`cred*`).
  const dot = last.lastIndexOf('.');
  const stem = dot > 0 ? last.slice(0, dot) : last;
  if (/[A-Za-z0-9]/.test(stem.replace(/\[[^\]]*\]/g, ''))) examples.push(...SECRET_NAME_EXAMPLES);
  const name = examples.find((n) => globRegex(last).test(n) && secretReason(n) !== undefined);
  return name ? `it can match ${name}, which may hold secrets` : undefined;
}

/**
 * Secret extensions completing the glob's literal start: `signing-key?pem` can be signing-key.pem,
 * `key.p*` key.pem. A trailing `*` must already have begun the extension (`build*` is not build.pem).
 */
function extensionCandidates(glob: string): string[] {
  const prefix = /^[^*?[]*/.exec(glob)![0];
  const open = glob.endsWith('*');
  const out: string[] = [];
  for (const ext of SECRET_EXTENSIONS) {
    for (let k = open ? 1 : 0; k <= ext.length; k++) {
      if (!prefix.endsWith(ext.slice(0, k))) continue;
      out.push(prefix + ext.slice(k));
      if (!open) out.push(`${prefix}x${ext}`);
    }
  }
  return out;
}
