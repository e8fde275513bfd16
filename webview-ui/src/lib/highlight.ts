// A small syntax highlighter: comments, strings, numbers, keywords and a few language-specific
// tokens, emitted as <span class="tk-*"> over escaped text. Colors come from theme variables in CSS.
// Deliberately approximate (no grammar): good enough to read a snippet, tiny, and never slow.

import { escapeHtml } from '../../../src/core/text/html-escape';

export { escapeHtml };

interface Lang {
  keywords: Set<string>;
  literals?: Set<string>;
  /** Alternatives tried in order; each has a token class. Must not match the empty string. */
  rules: [string, RegExp][];
}

const words = (s: string) => new Set(s.split(' '));

const C_COMMENTS: [string, RegExp][] = [
  ['c', /\/\/[^\n]*/y],
  ['c', /\/\*[\s\S]*?(?:\*\/|$)/y],
];
const HASH_COMMENT: [string, RegExp] = ['c', /#[^\n]*/y];
const DQ: [string, RegExp] = ['s', /"(?:[^"\\\n]|\\.)*"?/y];
const SQ: [string, RegExp] = ['s', /'(?:[^'\\\n]|\\.)*'?/y];
const BT: [string, RegExp] = ['s', /`(?:[^`\\]|\\[\s\S])*`?/y];
const NUM: [string, RegExp] = ['n', /\b(?:0[xob][\da-f_]+|\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?)n?\b/iy];

const JS_KW =
  'abstract as async await break case catch class const continue debugger declare default delete do else enum export extends finally for from function get if implements import in instanceof interface keyof let new of package private protected public readonly return satisfies set static super switch this throw try type typeof var void while with yield';
const C_KW =
  'auto break case catch char class const continue default delete do double else enum extern final finally float for friend goto if implements import inline int interface long namespace new operator package private protected public register return short signed sizeof static struct super switch template this throw throws try typedef typename union unsigned using virtual void volatile while bool string var fn func let mut pub impl trait use mod crate self match loop where dyn ref move go defer chan select range map type struct package';

const LANGS: Record<string, Lang> = {
  js: {
    keywords: words(JS_KW),
    literals: words('true false null undefined NaN Infinity'),
    rules: [...C_COMMENTS, DQ, SQ, BT, NUM],
  },
  py: {
    keywords: words(
      'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self',
    ),
    literals: words('True False None'),
    rules: [HASH_COMMENT, ['s', /(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$))/y], DQ, SQ, NUM],
  },
  sh: {
    keywords: words(
      'if then else elif fi for while until do done case esac in function return export local readonly declare unset set source echo cd exit',
    ),
    literals: words('true false'),
    rules: [
      HASH_COMMENT,
      DQ,
      SQ,
      ['v', /\$(?:\{[^}\n]*\}?|[A-Za-z_][A-Za-z0-9_]*|[0-9@#?$!*-])/y],
      ['o', /&&|\|\||[|;<>]/y],
      NUM,
    ],
  },
  c: {
    keywords: words(C_KW),
    literals: words('true false null nullptr NULL nil None'),
    rules: [...C_COMMENTS, DQ, SQ, BT, NUM],
  },
  json: {
    keywords: new Set(),
    literals: words('true false null'),
    rules: [['p', /"(?:[^"\\\n]|\\.)*"(?=\s*:)/y], DQ, NUM],
  },
  css: {
    keywords: words('important media import supports keyframes from to'),
    rules: [
      ['c', /\/\*[\s\S]*?(?:\*\/|$)/y],
      DQ,
      SQ,
      ['n', /#[\da-f]{3,8}\b/iy],
      ['p', /[a-z-]+(?=\s*:)/y],
      NUM,
    ],
  },
  yaml: {
    keywords: new Set(),
    literals: words('true false null yes no'),
    rules: [HASH_COMMENT, ['p', /[\w.-]+(?=\s*:(?:\s|$))/y], DQ, SQ, NUM],
  },
  sql: {
    keywords: words(
      'select from where and or not insert into values update set delete create table drop alter index join left right inner outer on group by order having limit offset as distinct union all primary key foreign references null is in like between case when then else end',
    ),
    rules: [['c', /--[^\n]*/y], SQ, DQ, NUM],
  },
  html: {
    keywords: new Set(),
    rules: [
      ['c', /<!--[\s\S]*?(?:-->|$)/y],
      ['k', /<\/?[A-Za-z][\w:-]*|\/?>/y],
      ['p', /[\w:-]+(?==)/y],
      DQ,
      SQ,
    ],
  },
};

const ALIASES: Record<string, string> = {
  javascript: 'js',
  jsx: 'js',
  ts: 'js',
  tsx: 'js',
  typescript: 'js',
  mjs: 'js',
  cjs: 'js',
  python: 'py',
  py3: 'py',
  bash: 'sh',
  shell: 'sh',
  zsh: 'sh',
  console: 'sh',
  shellscript: 'sh',
  java: 'c',
  cpp: 'c',
  'c++': 'c',
  cs: 'c',
  csharp: 'c',
  go: 'c',
  golang: 'c',
  rust: 'c',
  rs: 'c',
  kotlin: 'c',
  swift: 'c',
  php: 'c',
  h: 'c',
  jsonc: 'json',
  json5: 'json',
  scss: 'css',
  less: 'css',
  yml: 'yaml',
  toml: 'yaml',
  ini: 'yaml',
  xml: 'html',
  svg: 'html',
  vue: 'html',
};

/** Extension or fence name → a language key this highlighter knows, or undefined. */
export function languageOf(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const n = name.toLowerCase().replace(/^.*\./, '');
  if (n === 'diff' || n === 'patch') return 'diff';
  return LANGS[n] ? n : ALIASES[n];
}

/** Inputs longer than this are only escaped: highlighting is a nicety, not worth a long frame. */
const MAX_HIGHLIGHT = 60_000;

export function highlight(code: string, lang: string | undefined): string {
  const key = languageOf(lang);
  if (!key || code.length > MAX_HIGHLIGHT) return escapeHtml(code);
  if (key === 'diff') return highlightDiff(code);
  const spec = LANGS[key]!;
  const word = /[A-Za-z_$][\w$]*/y;
  let out = '';
  let plain = '';
  let i = 0;
  const flush = () => {
    if (plain) out += escapeHtml(plain);
    plain = '';
  };
  const emit = (cls: string, text: string) => {
    flush();
    out += `<span class="tk-${cls}">${escapeHtml(text)}</span>`;
  };
  outer: while (i < code.length) {
    for (const [cls, re] of spec.rules) {
      re.lastIndex = i;
      const m = re.exec(code);
      if (m && m[0].length > 0) {
        emit(cls, m[0]);
        i += m[0].length;
        continue outer;
      }
    }
    word.lastIndex = i;
    const w = word.exec(code);
    if (w) {
      const t = w[0];
      if (spec.keywords.has(t)) emit('k', t);
      else if (spec.literals?.has(t)) emit('l', t);
      else if (code[i + t.length] === '(') emit('f', t);
      else plain += t;
      i += t.length;
      continue;
    }
    plain += code[i];
    i++;
  }
  flush();
  return out;
}

function highlightDiff(code: string): string {
  return code
    .split('\n')
    .map((line) => {
      const cls = line.startsWith('+')
        ? 'ins'
        : line.startsWith('-')
          ? 'del'
          : line.startsWith('@@')
            ? 'hunk'
            : '';
      return cls ? `<span class="tk-${cls}">${escapeHtml(line)}</span>` : escapeHtml(line);
    })
    .join('\n');
}
