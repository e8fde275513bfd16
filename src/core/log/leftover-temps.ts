// The temp files a conversation folder's writer may find when it takes the lock: under the lock
// only it writes the folder and its snapshots, so every temp file there was left by a writer killed
// before its rename; a LOCK temp may be another process trying for the lock this moment, so only
// old ones go.
import path from 'node:path';
import { isDurableTempName, removeStaleTempFiles, tempsOf } from './durable-file';
import { LOCK_FILE } from './lock';

/** Removes what writers killed mid-write left in the conversation folder `dir` (the lock is held). */
export function removeLeftoverTemps(dir: string): void {
  removeStaleTempFiles(dir, isDurableTempName, { olderThanMs: 0 });
  removeStaleTempFiles(path.join(dir, 'snapshots'), isDurableTempName, { olderThanMs: 0 });
  removeStaleTempFiles(dir, tempsOf(LOCK_FILE));
}
