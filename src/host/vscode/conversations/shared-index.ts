// The conversation index (index.json) as this window keeps it. Several windows of a workspace share
// the file and each saves its own view, so it is reconciled with the conversation folders when
// loaded, and changes are applied and saved one at a time, in order.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { conversationEventCodec, type StoredConversationEvent } from '../../../core/agent/event-codec';
import { openEventStore } from '../../../core/log';
import {
  type ConversationIndex,
  ConversationIndexFile,
  entryFromState,
  type IndexEntry,
  removeEntry,
  stateFromStore,
  upsertEntry,
} from '../../../core/state';
import { listConversationFolders } from '../storage/workspace-home';

export class SharedConversationIndex {
  private index: ConversationIndex = { entries: [] };
  private readonly file: ConversationIndexFile;
  private indexing = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly log: Pick<vscode.LogOutputChannel, 'warn' | 'error'>,
    /** Called when the entries changed (the list and the tree show them). */
    private readonly onChange: () => void,
  ) {
    this.file = new ConversationIndexFile(join(root, 'index.json'));
  }

  get entries(): readonly IndexEntry[] {
    return this.index.entries;
  }

  has(id: string): boolean {
    return this.index.entries.some((e) => e.id === id);
  }

  /** Loads the index (rebuilding it from the folders if it is missing or damaged). */
  async load(): Promise<void> {
    const load = await this.file.load(() => this.scanFolders());
    if (load.source === 'rebuilt' && load.reason === 'corrupt') {
      this.log.warn(
        `The conversation index was damaged (${load.detail}); rebuilt it from the conversation folders.`,
      );
    }
    this.index = await this.reconcile(load.index);
  }

  /**
   * The index as the folders are: several windows of a workspace share it, and each saves its own
   * view, so a conversation another window created may be missing, and one it deleted still listed.
   */
  private async reconcile(index: ConversationIndex): Promise<ConversationIndex> {
    const folders = new Set(listConversationFolders(this.root));
    const listed = new Set(index.entries.map((e) => e.id));
    const missing = [...folders].filter((id) => !listed.has(id));
    const gone = index.entries.filter((e) => !folders.has(e.id));
    if (!missing.length && !gone.length) return index;
    let next = index;
    for (const e of gone) next = removeEntry(next, e.id);
    for (const e of await this.scanFolders(missing)) next = upsertEntry(next, e);
    await this.file
      .save(next)
      .catch((err: unknown) => this.log.warn(`Could not save the conversation index: ${String(err)}`));
    return next;
  }

  /**
   * Applies a change to the index (undefined: nothing changed), tells the tree and saves it.
   * Serialized, so the file is written once at a time and in order.
   */
  update(change: (index: ConversationIndex) => ConversationIndex | undefined): Promise<void> {
    this.indexing = this.indexing
      .then(async () => {
        const next = change(this.index);
        if (!next) return;
        this.index = next;
        this.onChange();
        await this.file.save(this.index);
      })
      .catch((err: unknown) => this.log.error(`Could not save the conversation index: ${String(err)}`));
    return this.indexing;
  }

  /** One index entry per conversation folder (or those `names`), read-only (never takes a writer lock). */
  private async scanFolders(names?: string[]): Promise<IndexEntry[]> {
    const entries: IndexEntry[] = [];
    for (const name of names ?? (await readdir(this.root).catch(() => [] as string[]))) {
      if (name === 'index.json' || name.endsWith('.tmp')) continue;
      try {
        const store = await openEventStore<StoredConversationEvent>(join(this.root, name), {
          codec: conversationEventCodec,
          readOnly: true,
        });
        // From the newest snapshot plus the events after it: rebuilding never reads whole logs.
        const { state } = await stateFromStore(store, { id: name }).finally(() => store.close());
        entries.push(entryFromState(name, state));
      } catch (err) {
        this.log.warn(`Skipped ${name} while rebuilding the index: ${String(err)}`);
      }
    }
    return entries;
  }
}
