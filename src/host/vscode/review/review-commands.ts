// Command ids of the review. The prefix is configurable so a test can run its own controller
// beside the extension's without colliding command registrations.
import type { HunkKey } from './hunks';

export const DEFAULT_REVIEW_COMMAND_PREFIX = 'logbook.review';

export function reviewCommandIds(prefix = DEFAULT_REVIEW_COMMAND_PREFIX) {
  return {
    acceptHunk: `${prefix}.acceptHunk`,
    rejectHunk: `${prefix}.rejectHunk`,
    acceptFile: `${prefix}.acceptFile`,
    rejectFile: `${prefix}.rejectFile`,
    acceptAll: `${prefix}.acceptAll`,
    rejectAll: `${prefix}.rejectAll`,
    showChanges: `${prefix}.showChanges`,
    confirmProposal: `${prefix}.confirmProposal`,
    rejectProposal: `${prefix}.rejectProposal`,
  } as const;
}

export type ReviewCommandIds = ReturnType<typeof reviewCommandIds>;

/** Argument of acceptHunk/rejectHunk (what a CodeLens passes). */
export interface HunkRef extends HunkKey {
  conversationId: string;
  path: string;
}

/** Argument of acceptFile/rejectFile. */
export interface FileRef {
  conversationId: string;
  path: string;
}
