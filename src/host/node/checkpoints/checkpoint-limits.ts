// How much a checkpoint records before it refuses or skips.
export interface CheckpointLimits {
  /** Files larger than this are not recorded (and reported as skipped). Default 5 MB. */
  maxFileBytes: number;
  /** A workspace with more files than this is not checkpointed. Default 100,000. */
  maxFiles: number;
  /** A checkpoint that would hash more new bytes than this is not taken. Default 1 GiB. */
  maxNewBytes: number;
  /**
   * Ignored files (.gitignore, the repository's info/exclude) held, at most this many in all.
   * An ignored folder that does not fit is left out whole and reported as over the budget.
   * Default 10,000.
   */
  maxIgnoredFiles: number;
  /** Bytes of ignored files held, at most. Default 100 MB. */
  maxIgnoredBytes: number;
}

export const DEFAULT_LIMITS: CheckpointLimits = {
  maxFileBytes: 5 * 1024 * 1024,
  maxFiles: 100_000,
  maxNewBytes: 1024 * 1024 * 1024,
  maxIgnoredFiles: 10_000,
  maxIgnoredBytes: 100 * 1024 * 1024,
};
