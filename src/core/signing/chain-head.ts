// Where a chain starts and how its links are walked. Version 1 starts from 32 zero bytes, so two
// conversations with the same first events (a fork and its source) share heads, and one's
// signatures hold over the other's chain. Version 2 starts from a genesis that binds the
// conversation's id, and links its `l`/`i` lines into the chain, so a signature vouches for them.
import crypto from 'node:crypto';
import { type ChainMarker, ZERO_HEAD, markerLine, nextHead, nextHeadOf } from './chain';

/** head(0): zeros for version 1; sha256 of `logbook-genesis 2 <id>` for version 2. */
export function genesisHead(version: 1 | 2, conversation: string | null): Buffer {
  if (version === 1) return ZERO_HEAD;
  return crypto.hash('sha256', `logbook-genesis 2 ${conversation ?? ''}`, 'buffer');
}

/** A marker's link. The prefix keeps it apart from an event's hash (a record is JSON, never this). */
export function markerLink(m: ChainMarker): Buffer {
  return crypto.hash('sha256', `logbook-marker ${markerLine(m)}`, 'buffer');
}

/** The id as a chain line holds it: one token (whitespace would split the line). */
export function chainIdToken(id: string): string {
  return id.replace(/\s/g, '_') || '-';
}

export interface WalkableChain {
  version: 1 | 2;
  conversation: string | null;
  hashes: readonly string[];
  markers: readonly ChainMarker[];
}

/**
 * Walks a chain forward from its genesis (or a head a signature states). A version-2 marker is
 * linked just before the hash of event `from`, so a signature at `from` does not cover it yet.
 */
export class ChainWalker {
  head: Buffer;
  /** events linked so far */
  at = 0;
  private m = 0;
  private readonly markers: readonly ChainMarker[];

  constructor(private readonly chain: WalkableChain) {
    this.head = genesisHead(chain.version, chain.conversation);
    this.markers = chain.version === 2 ? chain.markers : [];
  }

  /** Continues from `head`, the head after `count` events (as the last signature states it). */
  resume(count: number, head: Buffer): void {
    this.head = head;
    this.at = count;
    this.m = this.markers.findIndex((x) => x.from >= count);
    if (this.m < 0) this.m = this.markers.length;
  }

  /** The head after `count` events. */
  advanceTo(count: number): Buffer {
    for (; this.at < count; this.at++) {
      while (this.m < this.markers.length && this.markers[this.m]!.from <= this.at)
        this.head = nextHead(this.head, markerLink(this.markers[this.m++]!));
      this.head = nextHeadOf(this.head, this.chain.hashes[this.at]!);
    }
    return this.head;
  }

  /** Markers after the last event walked, not linked yet: they are linked before the next event. */
  unlinked(): ChainMarker[] {
    return this.markers.slice(this.m);
  }
}
