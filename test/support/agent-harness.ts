// Builds a real conversation for tests: the scripted LLM server through the real openai client,
// a real event store, and the Node ports on a temporary workspace.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startScriptedLlm,
  type Scenario,
  type ScriptedLlm,
  type StartScriptedLlmOptions,
} from './llm-server';
import { Conversation, type ConversationDeps } from '../../src/core/agent/conversation';
import { PolicyGate } from '../../src/core/agent/policy-gate';
import type { StoredConversationEvent } from '../../src/core/agent/event-codec';
import { conversationEventCodec } from '../../src/core/agent/event-codec';
import type { AgentSettings } from '../../src/core/agent/settings';
import type { HistoryCondenser, ToolSource } from '../../src/core/agent/ports';
import {
  type LlmClient,
  OpenAiLlmClient,
  type LlmSettings,
  type OpenAiLlmClientDeps,
} from '../../src/core/llm';
import type { Skill } from '../../src/core/skills/skills';
import { MemoryEventStore } from '../../src/core/log/memory-store';
import type { EventStore } from '../../src/core/log/event-store';
import { SegmentEventStore } from '../../src/core/log/segment-store';
import { defaultTools } from '../../src/core/tools';
import type { ToolPorts, ToolSpec } from '../../src/core/tools';
import { NodeFilePort } from '../../src/host/node/ports/node-file-port';
import { NodeTerminalPort } from '../../src/host/node/ports/node-terminal-port';
import { TempScratchPort } from '../../src/host/node/ports/temp-scratch-port';
import { NodeSearchPort } from '../../src/host/node/ports/node-search-port';

export interface Harness {
  llm: ScriptedLlm;
  workspace: string;
  ports: ToolPorts;
  open(opts?: {
    store?: EventStore<StoredConversationEvent>;
    settings?: Partial<AgentSettings>;
    snapshotEvery?: number;
    /** Whether the model takes images and where stored ones load from (ConversationDeps.images). */
    images?: ConversationDeps['images'];
    /** Extra ports (the image store file_editor keeps viewed images in). */
    ports?: Partial<ToolPorts>;
    /** Where the workspace's checkpoints are recorded (a real store); none: no checkpoints. */
    checkpoints?: ConversationDeps['checkpoints'];
  }): Promise<Conversation>;
  persistentStore(): Promise<EventStore<StoredConversationEvent>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  condenser?: HistoryCondenser;
  /** A second scripted server answering the condenser's summary requests. */
  summarizer?: ScriptedLlm;
  /** Skills handed to every conversation opened (always-on ones go into the system prompt). */
  skills?: Skill[];
  /** Overrides of the agent client's settings, e.g. `prices` or `maxRetries`. */
  llmSettings?: Partial<LlmSettings>;
  /** Seams of the agent client; by default `sleep` returns at once. */
  clientDeps?: OpenAiLlmClientDeps;
  /** A model that reads each request instead of playing the scenario's turns (the demo model). */
  respond?: StartScriptedLlmOptions['respond'];
  /** Tools from outside (an MCP hub's view), offered besides the built-in ones. */
  toolSource?: ToolSource;
  /** Built-in tools offered besides the default ones (the web tools, built on a test WebPort). */
  extraTools?: ToolSpec[];
  /** A model client in place of the scripted server's (which still starts, unused). */
  llm?: LlmClient;
}

export async function createHarness(
  scenario: Scenario,
  settings: Partial<AgentSettings> = {},
  options: HarnessOptions = {},
): Promise<Harness> {
  const llm = await startScriptedLlm({ scenario, respond: options.respond });
  const root = mkdtempSync(join(tmpdir(), 'logbook-agent-'));
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  const ports: ToolPorts = {
    files: new NodeFilePort([workspace]),
    terminal: new NodeTerminalPort({ cwd: workspace }),
    search: new NodeSearchPort(),
    scratch: new TempScratchPort(join(root, 'scratch')),
  };
  const tools = [...defaultTools(), ...(options.extraTools ?? [])];
  const client = new OpenAiLlmClient(
    {
      baseUrl: llm.baseUrl,
      apiKey: 'test-key',
      model: 'scripted-model',
      maxRetries: 1,
      ...options.llmSettings,
    },
    { sleep: async () => {}, ...options.clientDeps },
  );
  const stores: EventStore<StoredConversationEvent>[] = [];
  return {
    llm,
    workspace,
    ports,
    async persistentStore() {
      const store = await SegmentEventStore.open<StoredConversationEvent>(join(root, 'conversation'), {
        codec: conversationEventCodec,
      });
      stores.push(store);
      return store;
    },
    async open(opts = {}) {
      const effective = { ...settings, ...opts.settings };
      const store = opts.store ?? new MemoryEventStore<StoredConversationEvent>();
      const deps: ConversationDeps = {
        id: 'test-conversation',
        store,
        llm: options.llm ?? client,
        tools,
        ports: { ...ports, ...opts.ports },
        cwd: workspace,
        settings: effective,
        ...(opts.images ? { images: opts.images } : {}),
        ...(opts.checkpoints ? { checkpoints: opts.checkpoints } : {}),
        ...(opts.snapshotEvery ? { snapshotEvery: opts.snapshotEvery } : {}),
        ...(options.condenser ? { condenser: options.condenser } : {}),
        ...(options.skills ? { skills: options.skills } : {}),
        ...(options.toolSource ? { toolSource: options.toolSource } : {}),
        ...(options.summarizer
          ? {
              condenserLlm: new OpenAiLlmClient(
                {
                  baseUrl: options.summarizer.baseUrl,
                  apiKey: 'test-key',
                  model: 'scripted-model',
                  maxRetries: 0,
                },
                { sleep: async () => {} },
              ),
            }
          : {}),
        gate: new PolicyGate(
          () => [...tools, ...(options.toolSource?.tools() ?? [])],
          () => ({
            mode: effective.confirmationMode ?? 'never',
            allowRules: effective.allowRules ?? [],
            roots: [workspace],
          }),
        ),
      };
      return Conversation.open(deps);
    },
    async close() {
      ports.terminal.dispose();
      for (const s of stores) await s.close().catch(() => {});
      await llm.close();
      await options.summarizer?.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
