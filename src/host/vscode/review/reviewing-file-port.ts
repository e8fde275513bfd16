// A FilePort that puts every agent write under review: it reads the text before the write and
// records the edit with the conversation and the action that made it. Wrap the port a
// conversation's tools get with it, so no tool has to know about the review.
import type { FilePort, WriteExpectation } from '../../../core/tools/ports';
import type { ReviewController } from './review-controller';

export interface ReviewingFilePortOptions {
  conversationId: string;
  /** Id of the action being executed (the ActionEvent id), read at each write. */
  actionId: () => string;
}

export class ReviewingFilePort implements FilePort {
  constructor(
    private readonly inner: FilePort,
    private readonly review: ReviewController,
    private readonly options: ReviewingFilePortOptions,
  ) {}

  get roots(): readonly string[] {
    return this.inner.roots;
  }

  readText(path: string): Promise<string | undefined> {
    return this.inner.readText(path);
  }

  async writeText(path: string, text: string, expect?: WriteExpectation): Promise<void> {
    const before = await this.inner.readText(path);
    await this.inner.writeText(path, text, expect);
    const { conversationId, actionId } = this.options;
    this.review.recordEdit({ conversationId, actionId: actionId(), path, before, after: text });
  }

  async delete(path: string, expect?: WriteExpectation): Promise<void> {
    await this.inner.delete(path, expect);
    // The agent undid a creation of its own: nothing is left to review for that file.
    this.review.forgetCreatedFile(this.options.conversationId, path);
  }

  stat(path: string): ReturnType<FilePort['stat']> {
    return this.inner.stat(path);
  }

  list(path: string): Promise<string[]> {
    return this.inner.list(path);
  }
}
