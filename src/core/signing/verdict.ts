// What a verification is asked, and what it finds: the verdict, the first bad event and why. Its own module so the fork's
// source check (source-proof-check.ts) and the record comparison report in the same words as verify.ts.
import type { Completeness } from './completeness';

export type BadReason =
  | 'content changed'
  | 'removed'
  | 'inserted'
  | 'reordered'
  | 'signature invalid'
  | 'unsigned'
  | 'spliced'
  | 'rewritten'
  | 'appended'
  | 'corrupt';

export interface BadEvent {
  index: number;
  /** the id of the event now at `index`, when there is one and it parses */
  id: string | null;
  reason: BadReason;
  detail: string;
}

export interface VerifyResult {
  /**
   * verified: every event signed when written and intact; unsigned: intact as far as signed, some
   * never signed; truncated: intact, but signed events recorded outside the folder are gone
   */
  status: 'verified' | 'broken' | 'unsigned' | 'truncated';
  events: number;
  /** events whose bytes match a signed chain */
  verified: number;
  signers: string[];
  /** who signed which events (inclusive ranges, in order); a fork's copies name its source's signer */
  signedBy: { did: string; from: number; to: number }[];
  /** events imported unsigned (from an OpenHands conversation), signed from the import on */
  imported: number;
  /** where those are (inclusive ranges): after the signed events an import kept, they are not first */
  importedRanges: { from: number; to: number }[];
  /** events chained late (already in the log when a signer first saw them), inclusive ranges */
  late: { from: number; to: number }[];
  firstBad: BadEvent | null;
  /** the conversation id a version-2 chain binds (null: version 1, or no chain) */
  conversation: string | null;
  /** whether the log still holds every event signed, as the head kept outside the folder says */
  completeness: Completeness;
}

export interface VerifyOptions {
  /** the id the host knows the conversation by: a version-2 chain bound to another is "spliced" */
  expectedId?: string;
  /** where the host keeps this conversation's head outside its folder (head-record.ts) */
  headFile?: string;
}
