// Shell text to a tree of simple commands: pipelines of commands, each with its words, leading
// variable assignments, redirections, and the scripts of the substitutions in its words. Both the
// risk rules and the allow rules work on this tree, so they agree on what "a sub-command" is.
import { parse as shellQuoteParse, type ParseEntry } from 'shell-quote';
import { HEREDOC_PLACEHOLDER, PLACEHOLDER, scanShell } from './shell-scan';

export interface Redirect {
  /** The operator as written: >, >>, >|, &>, &>>, >&, <, <<, <<<. */
  op: string;
  /** File descriptor before the operator (`2>`), if any. */
  fd?: string;
  target: string;
  /** For `<<`: the heredoc body. */
  heredoc?: string;
}

export interface SimpleCommand {
  /** `NAME=value` words before the command name. */
  assignments: string[];
  /** The command name and its arguments, quotes removed; `$VAR` stays as written. */
  argv: string[];
  redirects: Redirect[];
  /** Scripts of the $(...), `...` and <(...) in this command's words and redirections. */
  substitutions: ShellScript[];
  /** Set when this is a function definition (`name() {` or `function name`): its name. */
  definesFunction?: string;
}

export interface ShellScript {
  /** Commands joined by | form a pipeline; pipelines are separated by ; && || & and newlines. */
  pipelines: SimpleCommand[][];
  /** A quote or substitution was left open, so the text is not what the shell would run. */
  incomplete: boolean;
}

export class ShellParseError extends Error {}

export interface ParseOptions {
  /**
   * What a `$NAME` or `${…}` the shell expands becomes in a word (default: itself, as written).
   * A marker tells an expansion from a `$` that is quoted and stays literal.
   */
  expansion?: (inner: string) => string;
}

const MAX_DEPTH = 12;
const PIPE_OPS = new Set(['|', '|&']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
/** Reserved words that may open a command; what follows is the command itself. */
const LEADING_KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'while',
  'until',
  'do',
  '!',
  '{',
  'time',
  'coproc',
]);
/** Words that end a compound command and carry no command of their own. */
const CLOSING_KEYWORDS = new Set(['fi', 'done', 'esac', '}', ']]']);

export function parseShell(text: string, depth = 0, options: ParseOptions = {}): ShellScript {
  if (depth > MAX_DEPTH) throw new ShellParseError('commands are nested too deeply to analyse');
  const scanned = scanShell(text);
  const substitutions = scanned.substitutions.map((inner) => parseShell(inner, depth + 1, options));
  const expansion = options.expansion ?? ((name: string) => `$${name}`);
  const entries = shellQuoteParse(scanned.text, expansion) as ParseEntry[];

  const pipelines: SimpleCommand[][] = [];
  let pipeline: SimpleCommand[] = [];
  let words: string[] = [];
  let redirects: Redirect[] = [];
  let incomplete = scanned.incomplete || substitutions.some((s) => s.incomplete);

  const endCommand = () => {
    const command = buildCommand(words, redirects, substitutions, scanned.heredocs);
    if (command) pipeline.push(command);
    words = [];
    redirects = [];
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length > 0) pipelines.push(pipeline);
    pipeline = [];
  };

  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as ParseEntry;
    if (typeof entry === 'string') {
      words.push(entry);
    } else if ('comment' in entry) {
      continue;
    } else if (entry.op === 'glob') {
      words.push((entry as { pattern: string }).pattern);
    } else if (isRedirect(entry.op)) {
      // `2>` arrives as the word "2" then the operator; a lone digit right before is the fd.
      const fd = words.length > 0 && /^\d$/.test(words[words.length - 1] as string) ? words.pop() : undefined;
      const next = entries[i + 1];
      let target = '';
      if (typeof next === 'string') target = next;
      else if (next && 'op' in next && next.op === 'glob') target = (next as { pattern: string }).pattern;
      else incomplete = true;
      if (target !== '' || next !== undefined) i++;
      redirects.push({ op: entry.op, target, ...(fd ? { fd } : {}) });
    } else if (entry.op === '(' && isOp(entries[i + 1], ')') && words.length === 1) {
      // `name() { ... }` defines a function; the body follows as ordinary commands.
      pipeline.push({
        assignments: [],
        argv: [],
        redirects: [],
        substitutions: [],
        definesFunction: words[0] as string,
      });
      words = [];
      i++;
    } else if (PIPE_OPS.has(entry.op)) {
      endCommand();
    } else {
      endPipeline(); // ; && || & ( ) ;; and anything unexpected
    }
  }
  endPipeline();
  return { pipelines, incomplete };
}

function isOp(entry: ParseEntry | undefined, op: string): boolean {
  return typeof entry === 'object' && 'op' in entry && entry.op === op;
}

function isRedirect(op: string): boolean {
  return op !== '<(' && (op.startsWith('<') || op.startsWith('>') || op.startsWith('&>'));
}

function buildCommand(
  rawWords: string[],
  redirects: Redirect[],
  substitutions: ShellScript[],
  heredocs: string[],
): SimpleCommand | undefined {
  let words = rawWords;
  while (words.length > 0 && LEADING_KEYWORDS.has(words[0] as string)) words = words.slice(1);
  while (words.length > 0 && CLOSING_KEYWORDS.has(words[words.length - 1] as string))
    words = words.slice(0, -1);
  if (words[0] === 'function' && words[1]) {
    return {
      assignments: [],
      argv: [],
      redirects: [],
      substitutions: [],
      definesFunction: words[1].replace(/\(\)$/, ''),
    };
  }
  // Loop and case headers (`for f in *`, `case $x in`) run nothing themselves.
  if (words[0] === 'for' || words[0] === 'select' || words[0] === 'case') words = [];
  if (words.length === 1 && words[0]?.endsWith(')') && !words[0].includes('(')) words = []; // case label `a)`

  let split = 0;
  while (split < words.length && ASSIGNMENT.test(words[split] as string)) split++;
  const assignments = words.slice(0, split);
  const argv = words.slice(split);

  const resolved = redirects.map((r) => {
    const doc = HEREDOC_PLACEHOLDER.exec(r.target);
    return doc ? { ...r, target: 'EOF', heredoc: heredocs[Number(doc[1])] ?? '' } : r;
  });
  const nested: ShellScript[] = [];
  for (const text of [...words, ...resolved.map((r) => r.target)]) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const script = substitutions[Number(match[1])];
      if (script) nested.push(script);
    }
  }
  if (argv.length === 0 && assignments.length === 0 && resolved.length === 0 && nested.length === 0)
    return undefined;
  return { assignments, argv, redirects: resolved, substitutions: nested };
}

/** Every simple command of a script, substitutions included, outermost first. */
export function allCommands(script: ShellScript): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  const visit = (s: ShellScript) => {
    for (const pipeline of s.pipelines) {
      for (const command of pipeline) {
        out.push(command);
        command.substitutions.forEach(visit);
      }
    }
  };
  visit(script);
  return out;
}

/** True when a word contains a command substitution placeholder (its value is decided at run time). */
export function hasSubstitution(word: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(word);
}
