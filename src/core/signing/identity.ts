// Who signs: an Ed25519 private key and its did:key. Hosts load or create the key (a 0600 file for
// the CLI); the core only signs with it and never writes or prints it.
import crypto, { type KeyObject } from 'node:crypto';
import { didKeyOf } from './did-key';

export interface SigningIdentity {
  readonly did: string;
  sign(message: Uint8Array): Buffer;
}

export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

/** An identity from an Ed25519 private key; any other key is refused with a message that says so. */
export function signingIdentity(privateKey: KeyObject, where = 'the signing key'): SigningIdentity {
  if (privateKey.type !== 'private') throw new SigningKeyError(`${where} is not a private key`);
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyError(
      `${where} is a ${privateKey.asymmetricKeyType ?? 'unknown'} key; Logbook signs with Ed25519 keys only`,
    );
  }
  const did = didKeyOf(privateKey);
  return { did, sign: (message) => crypto.sign(null, message, privateKey) };
}

/** Parses a PEM (PKCS#8) private key, with a clear error for text that is not one. */
export function identityFromPem(pem: string, where = 'the signing key'): SigningIdentity {
  let key: KeyObject;
  try {
    key = crypto.createPrivateKey({ key: pem, format: 'pem' });
  } catch (err) {
    throw new SigningKeyError(`${where} could not be read as a PEM private key (${(err as Error).message})`);
  }
  return signingIdentity(key, where);
}

export function newSigningKeyPem(): string {
  const { privateKey } = crypto.generateKeyPairSync('ed25519');
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
