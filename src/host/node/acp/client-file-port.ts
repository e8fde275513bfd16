// The file tools' port when the editor offers `fs/read_text_file` and `fs/write_text_file`: reads
// see the editor's buffers (unsaved changes included) and writes go through the editor, so its
// buffers and its own review show the agent's edit. Everything Logbook decides about a write
// happens before this port (rating, confirmation, checkpoint, the bound to the workspace); this
// port adds the last checks on disk and falls back to Logbook's own write where the editor's
// could land elsewhere.
import { lstatSync } from 'node:fs';
import type { AgentContext, FileSystemCapabilities } from '@agentclientprotocol/sdk';
import { realPath } from '../../../core/security/resolve-path';
import { type FilePort, PathMovedError, type WriteExpectation } from '../../../core/tools/ports';

export class ClientFilePort implements FilePort {
  constructor(
    private readonly disk: FilePort,
    private readonly client: AgentContext,
    private readonly sessionId: string,
    private readonly offered: FileSystemCapabilities,
  ) {}

  get roots(): readonly string[] {
    return this.disk.roots;
  }

  async readText(path: string): Promise<string | undefined> {
    // A file that does not exist is not the editor's to answer: the disk says so.
    if (!this.offered.readTextFile || (await this.disk.stat(path)) === undefined)
      return this.disk.readText(path);
    const { content } = await this.client.request('fs/read_text_file', { sessionId: this.sessionId, path });
    return content;
  }

  async writeText(path: string, text: string, expect?: WriteExpectation): Promise<void> {
    if (!this.offered.writeTextFile || !this.editorMayWrite(path))
      return this.disk.writeText(path, text, expect);
    if (expect) {
      const now = realPath(path);
      if (now !== expect.real) throw new PathMovedError(path, expect.real, now);
    }
    await this.client.request('fs/write_text_file', { sessionId: this.sessionId, path, content: text });
  }

  delete(path: string, expect?: WriteExpectation): Promise<void> {
    return this.disk.delete(path, expect);
  }

  stat(path: string) {
    return this.disk.stat(path);
  }

  list(path: string) {
    return this.disk.list(path);
  }

  /**
   * An editor writes through what the path is: a symlink, or a hard link that another name shares,
   * would carry its write elsewhere. Those (and new files, whose folders Logbook makes) are written
   * by Logbook's own port, which replaces the file instead.
   */
  private editorMayWrite(path: string): boolean {
    try {
      const info = lstatSync(path);
      return info.isFile() && info.nlink === 1;
    } catch {
      return false;
    }
  }
}
