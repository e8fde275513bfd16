// Each agent signs its own events. A delegated agent's key is derived from the user's identity and
// the child conversation's id: the seed is the SHA-256 of the user's Ed25519 signature over a fixed
// text naming the child (Ed25519 signatures are deterministic), so the same user reopening the child
// gets the same key, no key file is written, and no one without the user's key can make it. The
// parent's log records the child's did:key, which is what verification checks against.
import crypto from 'node:crypto';
import { type SigningIdentity, signingIdentity } from '../signing';

// PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function agentKeyMessage(conversationId: string): Uint8Array {
  return new TextEncoder().encode(`logbook-agent-key 1 ${conversationId}`);
}

export function deriveAgentIdentity(user: SigningIdentity, conversationId: string): SigningIdentity {
  const seed = crypto
    .createHash('sha256')
    .update(user.sign(agentKeyMessage(conversationId)))
    .digest();
  const key = crypto.createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return signingIdentity(key, `the key of agent conversation ${conversationId}`);
}
