// The model's settings: which endpoint and model answer, with what key, limits and prices. The
// longest category, kept apart from schema.ts, which lists them first in SETTINGS.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { LLM_VARIABLES } from '../llm/environment-names';
import { readPriceTable } from '../llm/pricing';
import { REASONING_EFFORTS } from '../llm/request-hints';
import { choice, decimal, flag, integer, object, orNull, text } from './kinds';
import { BOTH, setting, type SettingDef, VS } from './setting-def';

const PRICES_EXPECT =
  'JSON such as {"my-model":{"input":3,"cachedInput":0.3,"output":15}} (USD per 1M tokens)';

export const MODEL_SETTINGS: readonly SettingDef[] = [
  setting({
    key: 'model.provider',
    kind: choice(['openai', 'vscode']),
    default: 'openai',
    hosts: VS,
    description:
      "Where the agent's model runs. Pick a model of either kind with **Logbook: Select Model**. With `vscode`, tokens are counted by the model's own tokenizer and the cost is unknown (only `logbook.budget.maxTokens` limits it).",
  }),
  setting({
    key: 'model.editorModel',
    kind: text(),
    default: '',
    hosts: VS,
    description:
      'The editor model used when `logbook.model.provider` is `vscode`: its id or its family (e.g. `gpt-4o`). Empty: the first model VS Code offers.',
  }),
  setting({
    key: 'model.baseURL',
    kind: text(),
    default: 'https://api.openai.com/v1',
    hosts: BOTH,
    guards: true,
    env: LLM_VARIABLES.baseUrl,
    description:
      "Base URL of an OpenAI-compatible Chat Completions endpoint, e.g. `http://localhost:11434/v1` for Ollama or `http://localhost:1234/v1` for LM Studio. The API key is not a setting: run **Logbook: Connect a Model** (endpoint, model and key) or **Logbook: Set API Key**, which keep it in VS Code's secret storage.",
  }),
  setting({
    key: 'model.apiKey',
    kind: text(),
    default: '',
    hosts: BOTH,
    env: LLM_VARIABLES.apiKey,
    secret: true,
    description:
      'The API key sent to the endpoint. Only from the environment in the CLI; VS Code keeps it in its secret storage (**Logbook: Set API Key**) and falls back to the environment. Never shown, never recorded.',
  }),
  setting({
    key: 'model.name',
    kind: text(),
    default: 'gpt-4o-mini',
    hosts: BOTH,
    env: LLM_VARIABLES.model,
    description: 'Model name sent with every request.',
  }),
  setting({
    key: 'model.temperature',
    kind: orNull(decimal({ min: 0 })),
    default: null,
    hosts: VS,
    description: "Sampling temperature; leave empty to use the endpoint's default.",
  }),
  setting({
    key: 'model.maxOutputTokens',
    kind: orNull(integer(1)),
    default: null,
    hosts: VS,
    description: "Upper bound on tokens the model may generate per reply; empty for the endpoint's default.",
  }),
  setting({
    key: 'model.extraHeaders',
    kind: object(
      lazySchema(() => z.record(z.string(), z.string())),
      'an object of header names and text values',
    ),
    default: {},
    hosts: VS,
    guards: true,
    description:
      'Extra HTTP headers sent with every request (for proxies or gateways). Do not put API keys here; use "Logbook: Set API Key".',
  }),
  setting({
    key: 'model.replyTimeoutSeconds',
    kind: integer(1),
    default: 600,
    hosts: BOTH,
    env: ['LOGBOOK_REPLY_TIMEOUT_SECONDS'],
    expect: 'a positive whole number of seconds',
    description:
      'Longest one model reply may take, from the request to its last chunk. A reply still streaming then is stopped and the step fails with a timeout error (it is not retried).',
  }),
  setting({
    key: 'model.maxReplyBytes',
    kind: integer(1),
    default: 4194304,
    hosts: BOTH,
    env: ['LOGBOOK_MAX_REPLY_BYTES'],
    expect: 'a positive whole number of bytes',
    description:
      'Largest model reply (text, reasoning and tool calls, in bytes; default 4 MiB). A reply that grows past it is stopped and the step fails with a timeout error (it is not retried).',
  }),
  setting({
    key: 'model.supportsImages',
    kind: flag(),
    default: true,
    hosts: VS,
    description:
      'Whether the model takes images. When on, images pasted or dropped into the message box (and image files the agent views) are sent as image content; when off, each is left out and the model reads a note saying an image was there. Turn it off for models without vision.',
  }),
  setting({
    key: 'model.reasoningEffort',
    kind: choice(['default', ...REASONING_EFFORTS]),
    default: 'default',
    hosts: BOTH,
    env: ['LOGBOOK_REASONING_EFFORT'],
    expect: `one of ${REASONING_EFFORTS.join(', ')} (or default: the endpoint decides)`,
    description:
      'How hard a reasoning model thinks before it answers (OpenAI `o*` and `gpt-5*`, and reasoning models on OpenRouter). `default` sends nothing and leaves it to the endpoint; models that do not reason may reject any other value.',
  }),
  setting({
    key: 'model.promptCaching',
    kind: choice(['auto', 'key', 'breakpoints', 'off']),
    default: 'auto',
    hosts: BOTH,
    env: ['LOGBOOK_PROMPT_CACHING'],
    description:
      "Prompt-cache hints sent with each request, so the long, unchanged start of a conversation is read from the provider's cache (cheaper and faster). Cached tokens are shown in the chat header. See `docs/llm-endpoints.md`.",
  }),
  setting({
    key: 'model.pricing',
    kind: object(
      lazySchema(() => z.record(z.string(), z.unknown())),
      PRICES_EXPECT,
    ),
    default: {},
    hosts: BOTH,
    env: ['LOGBOOK_PRICING'],
    problems: (value) => readPriceTable(value).problems,
    description:
      "Prices of models, in USD per million tokens, keyed by model name (a name also prices the names it starts: `gpt-4o` prices `gpt-4o-2024-08-06`). Added to, and over, the built-in prices of a few OpenAI models. A cost reported by the provider (OpenRouter's `usage.cost`) wins over a price. Without either, a model's cost is unknown: `#logbook.budget.maxCost#` cannot count it, and the chat says so.",
  }),
];
