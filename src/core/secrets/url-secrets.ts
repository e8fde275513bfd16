// Credentials a URL can carry: `user:password@` and secret-looking query values (`?api-key=`,
// `?sig=`). A base URL written that way is as secret as the key, and the HTTP stack quotes the
// URL in its errors ("Request cannot be constructed from a URL that includes credentials: ...").
import type { NamedSecret } from './named-secret';

/** Query parameters whose values are credentials (`api-key`, `key`, `token`, `access_token`, `sig`, `code`...). */
const SECRET_PARAM = /key|token|secret|pass|auth|sig|code|credential/i;

export function urlSecrets(url: string, name: string): NamedSecret[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const out: NamedSecret[] = [];
  const add = (what: string, raw: string, decoded: string) => {
    for (const value of new Set([raw, decoded])) if (value) out.push({ name: `${name} ${what}`, value });
  };
  if (parsed.password) {
    // A user name alone is no secret; next to a password it is half of one.
    add('user', parsed.username, safeDecode(parsed.username));
    add('password', parsed.password, safeDecode(parsed.password));
  }
  for (const raw of parsed.search.slice(1).split('&')) {
    const eq = raw.indexOf('=');
    if (eq < 0) continue;
    const param = safeDecode(raw.slice(0, eq));
    if (!SECRET_PARAM.test(param)) continue;
    add(param, raw.slice(eq + 1), safeDecode(raw.slice(eq + 1).replace(/\+/g, ' ')));
  }
  return out;
}

/**
 * The URL without what urlSecrets finds (user and password, secret query parameters), for keeping
 * where no secret may go; the text as given when it is no URL.
 */
export function withoutUrlCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  parsed.username = '';
  parsed.password = '';
  const kept = parsed.search
    .slice(1)
    .split('&')
    .filter((raw) => raw !== '' && !SECRET_PARAM.test(safeDecode(raw.split('=')[0] ?? '')));
  parsed.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  return parsed.toString();
}

export const URL_CREDENTIALS_MARKER = '[redacted credentials]';

/**
 * `scheme://user:password@` in any text becomes `scheme://[redacted credentials]@`: a URL with
 * credentials Logbook was never told about (a git remote the agent prints) is a secret too.
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:]*:[^\s/?#@]+@/gi;

export function redactUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(USERINFO, `$1${URL_CREDENTIALS_MARKER}@`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
