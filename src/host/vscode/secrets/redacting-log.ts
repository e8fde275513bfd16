// The Output channel sees what Logbook logs: errors with their messages and stacks, paths, commands.
// Any of those may hold a secret (a command's output quoted in an error, a URL with a key), so every
// line is passed through the same redactor as the events before it reaches the channel and its file.
import type * as vscode from 'vscode';
import { type NamedSecret, SecretRedactor } from '../../../core/secrets';

const WRITES = new Set(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']);

export function redactingLog(
  channel: vscode.LogOutputChannel,
  secrets: () => readonly NamedSecret[],
): vscode.LogOutputChannel {
  let cache: { list: readonly NamedSecret[]; redactor: SecretRedactor } | undefined;
  const redactor = () => {
    const list = secrets();
    if (cache?.list !== list) cache = { list, redactor: new SecretRedactor(list) };
    return cache.redactor;
  };
  const clean = (arg: unknown): unknown => {
    const r = redactor();
    if (r.empty) return arg;
    if (typeof arg === 'string') return r.redactText(arg);
    if (arg instanceof Error) return r.redactText(arg.stack ?? `${arg.name}: ${arg.message}`);
    return arg === undefined || arg === null ? arg : r.redactText(String(arg));
  };
  return new Proxy(channel, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && WRITES.has(prop)) {
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map(clean));
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}
