// What the review remembers, per conversation and file: the text before the agent first touched
// the file (the baseline; null when the agent created it), the text the agent last wrote, and the
// actions that wrote it. Plain data, so it can be saved with the conversation and restored.
import { z } from 'zod';
import { lazySchema } from '../../../core/schema/lazy-schema';
import { changedLines } from './hunk-owners';

export interface FileReview {
  path: string;
  /** Text before the agent's first edit in this conversation; null if the agent created the file. */
  baseline: string | null;
  /** Text right after the agent's last edit; user changes are measured against it. */
  agentText: string;
  actionIds: string[];
  /** Per action, the lines its edit added or removed: a rejected hunk marks only its own actions. */
  actionLines?: Record<string, string[]>;
  /** Order of the last edit across all conversations: the newest review owns the editor UI. */
  sequence: number;
}

const fileReviewSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    baseline: z.string().nullable(),
    agentText: z.string(),
    actionIds: z.array(z.string()),
    actionLines: z.optional(z.record(z.string(), z.array(z.string()))),
    sequence: z.number().int(),
  }),
);

export const reviewSnapshotSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    conversations: z.record(z.string(), z.array(fileReviewSchema)),
  }),
);

export type ReviewSnapshot = z.infer<typeof reviewSnapshotSchema>;

export interface RecordedEdit {
  conversationId: string;
  actionId: string;
  path: string;
  /** Text before this edit; undefined when the edit created the file. */
  before: string | undefined;
  after: string;
}

export class ReviewState {
  private readonly conversations = new Map<string, Map<string, FileReview>>();
  private sequence = 0;

  record(edit: RecordedEdit): FileReview {
    const files = this.filesOf(edit.conversationId);
    const existing = files.get(edit.path);
    const review: FileReview = existing ?? {
      path: edit.path,
      baseline: edit.before ?? null,
      agentText: edit.after,
      actionIds: [],
      sequence: 0,
    };
    review.agentText = edit.after;
    if (!review.actionIds.includes(edit.actionId)) review.actionIds.push(edit.actionId);
    const lines = (review.actionLines ??= {});
    lines[edit.actionId] = [
      ...new Set([...(lines[edit.actionId] ?? []), ...changedLines(edit.before ?? '', edit.after)]),
    ];
    review.sequence = ++this.sequence;
    files.set(edit.path, review);
    return review;
  }

  get(conversationId: string, path: string): FileReview | undefined {
    return this.conversations.get(conversationId)?.get(path);
  }

  /** Reviews of one conversation, or of all when no id is given. */
  list(conversationId?: string): { conversationId: string; review: FileReview }[] {
    const ids = conversationId === undefined ? [...this.conversations.keys()] : [conversationId];
    return ids.flatMap((id) =>
      [...(this.conversations.get(id)?.values() ?? [])].map((review) => ({ conversationId: id, review })),
    );
  }

  /** The review shown in the editor for `path`: the one with the most recent agent edit. */
  owner(path: string): { conversationId: string; review: FileReview } | undefined {
    let best: { conversationId: string; review: FileReview } | undefined;
    for (const [conversationId, files] of this.conversations) {
      const review = files.get(path);
      if (review && (!best || review.sequence > best.review.sequence)) best = { conversationId, review };
    }
    return best;
  }

  conversationIds(): string[] {
    return [...this.conversations.keys()];
  }

  remove(conversationId: string, path: string): void {
    const files = this.conversations.get(conversationId);
    files?.delete(path);
    if (files?.size === 0) this.conversations.delete(conversationId);
  }

  clear(conversationId: string): void {
    this.conversations.delete(conversationId);
  }

  toJSON(conversationId?: string): ReviewSnapshot {
    const conversations: ReviewSnapshot['conversations'] = {};
    for (const { conversationId: id, review } of this.list(conversationId)) {
      (conversations[id] ??= []).push({
        ...review,
        actionIds: [...review.actionIds],
        ...(review.actionLines ? { actionLines: { ...review.actionLines } } : {}),
      });
    }
    return { version: 1, conversations };
  }

  /** Adds (or replaces) the conversations of a snapshot; throws on a malformed one. */
  restore(snapshot: unknown): string[] {
    const parsed = reviewSnapshotSchema.parse(snapshot);
    for (const [id, reviews] of Object.entries(parsed.conversations)) {
      const files = new Map<string, FileReview>();
      for (const r of reviews) {
        const { actionLines, ...rest } = r;
        files.set(r.path, {
          ...rest,
          actionIds: [...r.actionIds],
          ...(actionLines ? { actionLines: { ...actionLines } } : {}),
        });
        this.sequence = Math.max(this.sequence, r.sequence);
      }
      this.conversations.set(id, files);
    }
    return Object.keys(parsed.conversations);
  }

  private filesOf(conversationId: string): Map<string, FileReview> {
    let files = this.conversations.get(conversationId);
    if (!files) this.conversations.set(conversationId, (files = new Map()));
    return files;
  }
}
