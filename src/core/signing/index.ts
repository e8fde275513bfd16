// Signed, tamper-evident conversations: Ed25519 identities named by did:key, a hash chain over every
// record with signatures over its head (signed-store.ts), and verification (verify.ts).
export { base58Decode, base58Encode } from './base58';
export { didKeyOf, publicKeyOfDid, rawPublicKey } from './did-key';
export {
  type SigningIdentity,
  SigningKeyError,
  identityFromPem,
  newSigningKeyPem,
  signingIdentity,
} from './identity';
export {
  SIGNATURES_FILE,
  chainSigners,
  eventHash,
  parseChainFile,
  readChainText,
  signablePayload,
} from './chain';
export { type CopySource, SignedEventStore, openSignedStore, type SignedStoreOptions } from './signed-store';
export {
  type BadEvent,
  type BadReason,
  type VerifyResult,
  verifyConversation,
  verifyConversationInSteps,
} from './verify';
export { eventProofs, type EventProof } from './proof';
export {
  type SignerStanding,
  type SignerTrust,
  type Verdict,
  type VerifyReport,
  completenessText,
  signedByText,
  signerName,
  standingOf,
  unknownSigners,
  unsignedText,
  verdictOf,
  verifiedText,
  verifyReport,
  VERDICTS_WORST_FIRST,
  worstVerdict,
} from './summary';
export { type Completeness, truncatedText } from './completeness';
export { type HeadRecord, folderKey, readHeadRecord } from './head-record';
