// did:key names for Ed25519 public keys (https://w3c-ccg.github.io/did-method-key/): the multicodec
// ed25519-pub prefix (0xed 0x01) before the 32-byte key, base58btc, multibase prefix 'z'. Every
// such name starts with did:key:z6Mk.
import crypto, { type KeyObject } from 'node:crypto';
import { base58Decode, base58Encode } from './base58';

const ED25519_PUB = [0xed, 0x01];
const PREFIX = 'did:key:z';
/** SPKI DER of an Ed25519 public key is this 12-byte header and the 32-byte key. */
const SPKI_HEADER = Buffer.from('302a300506032b6570032100', 'hex');

/** The raw 32 bytes of an Ed25519 public key. */
export function rawPublicKey(key: KeyObject): Buffer {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
  const pub = key.type === 'private' ? crypto.createPublicKey(key) : key;
  const der = pub.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
}

export function didKeyOf(key: KeyObject): string {
  return PREFIX + base58Encode(Buffer.concat([Buffer.from(ED25519_PUB), rawPublicKey(key)]));
}

/** The public key a did:key names, or null when it is not an Ed25519 did:key. */
export function publicKeyOfDid(did: string): KeyObject | null {
  if (!did.startsWith(PREFIX)) return null;
  const bytes = base58Decode(did.slice(PREFIX.length));
  if (!bytes || bytes.length !== 34 || bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1])
    return null;
  try {
    return crypto.createPublicKey({
      key: Buffer.concat([SPKI_HEADER, bytes.subarray(2)]),
      format: 'der',
      type: 'spki',
    });
  } catch {
    return null;
  }
}
