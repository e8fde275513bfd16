// Owns the workspace's conversations and which one is active; the chat view, the tree and the
// commands all go through it, so there is one place that knows what is open.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { ConversationSummary, ViewEvent } from '../../protocol/messages';

type EventJson = ViewEvent['event'];

export class ConversationHandle {
  private readonly events: EventJson[] = [];
  status = 'idle';

  constructor(
    readonly id: string,
    readonly title: string,
    readonly created: Date,
    private readonly onAppend: (seq: number, event: EventJson) => void,
  ) {}

  append(event: EventJson): void {
    this.events.push(event);
    this.onAppend(this.events.length - 1, event);
  }

  get length(): number {
    return this.events.length;
  }

  eventsAfter(seq: number): ViewEvent[] {
    return this.events.slice(seq + 1).map((event, i) => ({ seq: seq + 1 + i, event }));
  }

  summary(): ConversationSummary {
    return { id: this.id, title: this.title, status: this.status };
  }
}

export class ConversationService implements vscode.Disposable {
  private readonly conversations = new Map<string, ConversationHandle>();
  private activeConversation: ConversationHandle | undefined;
  private readonly appendEmitter = new vscode.EventEmitter<{
    conversationId: string;
    seq: number;
    event: EventJson;
  }>();
  private readonly activeEmitter = new vscode.EventEmitter<ConversationHandle | undefined>();
  private readonly listEmitter = new vscode.EventEmitter<void>();
  readonly onDidAppend = this.appendEmitter.event;
  readonly onDidChangeActive = this.activeEmitter.event;
  readonly onDidChangeList = this.listEmitter.event;

  get active(): ConversationHandle | undefined {
    return this.activeConversation;
  }

  get activeId(): string | null {
    return this.activeConversation?.id ?? null;
  }

  list(): ConversationHandle[] {
    return [...this.conversations.values()].sort((a, b) => b.created.getTime() - a.created.getTime());
  }

  get(id: string): ConversationHandle | undefined {
    return this.conversations.get(id);
  }

  create(title: string): ConversationHandle {
    const id = randomUUID();
    const handle = new ConversationHandle(id, title, new Date(), (seq, event) =>
      this.appendEmitter.fire({ conversationId: id, seq, event }),
    );
    this.conversations.set(id, handle);
    this.listEmitter.fire();
    this.setActive(handle);
    return handle;
  }

  setActive(handle: ConversationHandle | undefined): void {
    this.activeConversation = handle;
    this.activeEmitter.fire(handle);
  }

  async startTask(task: string): Promise<ConversationHandle> {
    const handle = this.create(titleOf(task));
    await this.sendMessageTo(handle, task);
    return handle;
  }

  async sendMessage(text: string): Promise<void> {
    const handle = this.activeConversation ?? this.create(titleOf(text));
    await this.sendMessageTo(handle, text);
  }

  private async sendMessageTo(handle: ConversationHandle, text: string): Promise<void> {
    handle.append({
      kind: 'MessageEvent',
      id: randomUUID(),
      timestamp: new Date().toISOString(),
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text }] },
    });
  }

  dispose(): void {
    this.appendEmitter.dispose();
    this.activeEmitter.dispose();
    this.listEmitter.dispose();
  }
}

export function titleOf(task: string): string {
  const line = task.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New conversation';
}
