// The inline diff review: what the extension wires (see register-review.ts for the commands).
export { registerReview } from './register-review';
export { ReviewController, type ReviewControllerOptions } from './review-controller';
export { ReviewingFilePort, type ReviewingFilePortOptions } from './reviewing-file-port';
export {
  reviewCommandIds,
  DEFAULT_REVIEW_COMMAND_PREFIX,
  type HunkRef,
  type FileRef,
} from './review-commands';
export type { RecordedEdit, ReviewSnapshot } from './review-state';
export type { ProposalDecision } from './proposals';
export type { Hunk } from './hunks';
export { BASELINE_SCHEME, PROPOSED_SCHEME } from './virtual-documents';
