// The user's trust list: did:keys of other signers they know, by name, in trusted-signers.json in
// the Logbook config folder. `logbook trust` edits it; `logbook verify` and VS Code read it, so a
// signer trusted once is known in both. It lives beside the signing key rather than in a setting: a
// workspace's settings come with the repository, and must not be able to vouch for a key.
import fs from 'node:fs';
import path from 'node:path';
import { removeStaleTempFiles, tempsOf } from '../../core/log/durable-file';
import { publicKeyOfDid } from '../../core/signing';
import { type Env, logbookConfigDir } from './config-dir';

export interface TrustedSigner {
  did: string;
  name: string;
}

export function trustListPath(env: Env): string {
  return path.join(logbookConfigDir(env), 'trusted-signers.json');
}

/** The list, empty when there is none; a file that is not one is an error (never silently empty). */
export function readTrustList(file: string): TrustedSigner[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const bad = (): Error => new Error(`${file} is not a Logbook trust list ({"signers":[{"did","name"}]}).`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw bad();
  }
  const signers = (v as { signers?: unknown } | null)?.signers;
  if (!Array.isArray(signers)) throw bad();
  return signers.map((s: unknown) => {
    const { did, name } = (s ?? {}) as { did?: unknown; name?: unknown };
    if (typeof did !== 'string' || typeof name !== 'string') throw bad();
    return { did, name };
  });
}

export function writeTrustList(file: string, signers: readonly TrustedSigner[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Another `logbook trust` may be writing it now: only old temp files go.
  removeStaleTempFiles(path.dirname(file), tempsOf(path.basename(file)));
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ signers }, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Adds or renames a signer; the did must name an Ed25519 key. */
export function trustSigner(file: string, did: string, name: string): 'added' | 'renamed' {
  if (publicKeyOfDid(did) === null) throw new Error(`${did} is not an Ed25519 did:key (did:key:z6Mk…).`);
  const list = readTrustList(file);
  const at = list.findIndex((s) => s.did === did);
  if (at >= 0) list[at] = { did, name };
  else list.push({ did, name });
  writeTrustList(file, list);
  return at >= 0 ? 'renamed' : 'added';
}

export function distrustSigner(file: string, did: string): boolean {
  const list = readTrustList(file);
  const kept = list.filter((s) => s.did !== did);
  if (kept.length === list.length) return false;
  writeTrustList(file, kept);
  return true;
}
