// bwrap writes `{"child-pid": N}` to its --info-fd once its namespaces are set up. Started with
// --new-session, N leads the process group of everything inside: Ctrl+C goes there, never to
// bwrap itself (which would die of it and take the shell along).
import type { Readable } from 'node:stream';

/** Calls `found` with the inner group's leader once bwrap has written it to `info`. */
export function readInnerProcessGroup(info: Readable | null | undefined, found: (pid: number) => void): void {
  let text = '';
  info?.setEncoding('utf8');
  info?.on('data', (d: string) => {
    text += d;
    const pid = /"child-pid"\s*:\s*(\d+)/.exec(text);
    if (pid) found(Number(pid[1]));
  });
  info?.on('error', () => undefined);
}
