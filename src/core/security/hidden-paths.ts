// The places the sandbox hides from commands (the host's one list: Logbook's own folders, where
// secrets live, the user's denyRead), kept from the file tools too. Those run outside the sandbox,
// so without this rule a folder the user made writable (`~`, `~/.config`) would let file_editor
// rewrite Logbook's own settings or read `~/.ssh`. Judged where a path really leads, in every
// confirmation mode; the workspace is hidden only where the list names a place in it.
import { diskLookup, isInsideRoot, type PathLookup, realPath } from './resolve-path';

/** What the host tells the file tools about hidden places (read at each call: settings change). */
export interface HiddenPaths {
  /** Every location the sandbox hides, absolute. */
  locations: () => readonly string[];
  /** Logbook's own folders inside those that the agent is meant to read (its scratch folder). */
  readable?: () => readonly string[];
}

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
  return (name, real) => {
    const found = within(real, places);
    if (!found || within(real, readable)) return undefined;
    return (
      `${name} is hidden from the agent like from its commands: it lies in ${found.place}, which the ` +
      "sandbox hides (where secrets and Logbook's own settings live, or logbook.sandbox.denyRead), " +
      'in every confirmation mode'
    );
  };
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
