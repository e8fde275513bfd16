// The places the sandbox hides from commands (the host's one list: Logbook's own folders, where
// secrets live, the user's denyRead), kept from the file tools too. Those run outside the sandbox,
// so without this rule a folder the user made writable (`~`, `~/.config`) would let file_editor
// rewrite Logbook's own settings or read `~/.ssh`. Judged where a path really leads, in every
// confirmation mode; the workspace is hidden only where the list names a place in it. A hard link
// to a hidden file leads nowhere hidden by its path: the host tells it by the file's identity.
import { diskLookup, isInsideRoot, type PathLookup, realPath } from './resolve-path';

/** What the host tells the file tools about hidden places (read at each call: settings change). */
export interface HiddenPaths {
  /** Every location the sandbox hides, absolute. */
  locations: () => readonly string[];
  /** Logbook's own folders inside those that the agent is meant to read (its scratch folder). */
  readable?: () => readonly string[];
  /**
   * A look at hard links for one call (the host walks the hidden places): whether the regular file
   * at a path, which has other links, is one of the hidden files. Absent: links are not looked at.
   */
  links?: () => (real: string) => HiddenLinkVerdict;
}

/**
 * A file with other links that is one of the hidden files, or that cannot be told apart from one
 * (the host's walk of the hidden places stopped early: `unknown` says why); undefined: neither.
 */
export type HiddenLinkVerdict = { hidden: true } | { unknown: string } | undefined;

/**
 * The check for one call: `(name, real)` gives why the file tools must not touch `real` (`name` is
 * how the reason names it), or undefined. The list and each place's real location are read once,
 * so a search can check every path it found. `reading`: a read, which may reach Logbook's own
 * readable folders inside a hidden place.
 */
export function hiddenCheck(
  hidden: HiddenPaths | undefined,
  reading: boolean,
  lookup: PathLookup = diskLookup,
): (name: string, real: string) => string | undefined {
  if (!hidden) return () => undefined;
  const places = withRealPlaces(hidden.locations(), lookup);
  const readable = reading ? withRealPlaces(hidden.readable?.() ?? [], lookup) : [];
  const within = (real: string, list: typeof places) =>
    list.find(({ place, real: placeReal }) => isInsideRoot(real, place) || isInsideRoot(real, placeReal));
  let links: ((real: string) => HiddenLinkVerdict) | undefined;
  return (name, real) => {
    const found = within(real, places);
    if (!found) {
      // One lstat for the link count; the hidden places are looked at only for a file with others.
      if (!hidden.links || (lookup.hardLinks?.(real) ?? 1) < 2) return undefined;
      return linkReason(name, (links ??= hidden.links())(real));
    }
    if (within(real, readable)) return undefined;
    return (
      `${name} is hidden from the agent like from its commands: it lies in ${found.place}, which the ` +
      "sandbox hides (where secrets and Logbook's own settings live, or logbook.sandbox.denyRead), " +
      'in every confirmation mode'
    );
  };
}

/** The reason for a file with other links; it never names the hidden file, only that there is one. */
function linkReason(name: string, verdict: HiddenLinkVerdict): string | undefined {
  if (!verdict) return undefined;
  if ('hidden' in verdict)
    return (
      `${name} is hidden from the agent like from its commands: it is a hard link to a file in a place ` +
      "the sandbox hides (where secrets and Logbook's own settings live, or logbook.sandbox.denyRead), " +
      'in every confirmation mode'
    );
  return (
    `${name} is hidden from the agent like from its commands: it has other hard links, and whether ` +
    `one of them lies in a place the sandbox hides cannot be told (${verdict.unknown}), in every ` +
    'confirmation mode'
  );
}

/** `hiddenCheck` for one path. */
export function hiddenReason(
  name: string,
  real: string,
  hidden: HiddenPaths | undefined,
  reading: boolean,
  lookup: PathLookup = diskLookup,
): string | undefined {
  return hiddenCheck(hidden, reading, lookup)(name, real);
}

function withRealPlaces(places: readonly string[], lookup: PathLookup): { place: string; real: string }[] {
  return places.map((place) => ({ place, real: realPath(place, lookup) }));
}
