// Help text shared by several commands' help (help.ts): exit codes, environment, points, sandbox.
export const EXIT_CODES_HELP = `Exit codes:
  0    the agent finished
  1    usage error or other failure (the message says which)
  2    the agent waits for confirmation: continue with approve or reject (at a terminal, run,
       approve and reject ask in place instead, unless --no-input)
  3    the agent stopped on an error (LLM failure, iteration limit) or got stuck
  130  interrupted with Ctrl+C (the conversation is paused); 143 for SIGTERM, 129 for SIGHUP`;

export const LLM_ENV_HELP = `Environment:
  LOGBOOK_BASE_URL  OpenAI-compatible endpoint (default https://api.openai.com/v1); OPENAI_BASE_URL
                    when unset. A local model needs no key, e.g. Ollama's http://localhost:11434/v1
  LOGBOOK_API_KEY   its API key (never printed or stored); OPENAI_API_KEY when unset. Without a
                    key or an endpoint, run stops at once and says what to set
  LOGBOOK_MODEL     model name (default gpt-4o-mini)
                    approve, reject and resolve reuse the run's endpoint (recorded without any
                    credentials in its URL: give such a URL again) and model, unless these say
                    otherwise; never its key
  LOGBOOK_DEMO=1    talk to the built-in demo model, as --demo
  LOGBOOK_MAX_TOOL_CALLS  tool calls of one model reply that run (default 32; approve/reject
                    reuse the run's)
  LOGBOOK_PASS_ENV  variable names (comma-separated) the agent's shell may see, as --pass-env
  LOGBOOK_REPLY_TIMEOUT_SECONDS  longest one model reply may stream (default 600)
  LOGBOOK_MAX_REPLY_BYTES        largest model reply, in bytes (default 4194304, 4 MiB)
  LOGBOOK_MAX_TOKENS  stop once the conversation used this many tokens (prompt + completion)
  LOGBOOK_MAX_COST    stop once the conversation cost this many USD
  LOGBOOK_PRICING     prices in USD per 1M tokens, JSON keyed by model name (added to the built-in
                    prices of a few OpenAI models), e.g.
                    {"my-model":{"input":3,"cachedInput":0.3,"output":15}}
                    A cost the provider reports (OpenRouter's usage.cost) wins over a price. For a
                    model with neither, a [budget] line says LOGBOOK_MAX_COST cannot count it and
                    only LOGBOOK_MAX_TOKENS limits the run.
  LOGBOOK_REASONING_EFFORT  none, minimal, low, medium, high or xhigh, for models that take it
                    (default: the endpoint's)
  LOGBOOK_PROMPT_CACHING    auto (default), key, breakpoints or off: the prompt-cache hints sent
                    (auto: a cache key to OpenAI and Azure, breakpoints to Anthropic and Gemini
                    models on OpenRouter)

The agent's shell starts without OPENAI_API_KEY, any LOGBOOK_* variable or any variable holding
the key, and the key is replaced by [redacted API key] in everything recorded.`;

export const CHECKPOINT_ENV_HELP = `Checkpoints: before each action that can change files the workspace's files are recorded
(logbook checkpoints lists them, logbook restore puts them back), in a git object store of
Logbook's own outside the workspace; the workspace's .git is never touched.
  LOGBOOK_CHECKPOINTS=off            record none
  LOGBOOK_CHECKPOINTS_DIR            where the stores are (default $XDG_STATE_HOME/logbook/checkpoints,
                                     ~/.local/state/logbook/checkpoints), one per workspace
  LOGBOOK_CHECKPOINTS_EXCLUDE        gitignore patterns (comma-separated) left out besides .gitignore
  LOGBOOK_CHECKPOINTS_MAX_FILE_MB    larger files are skipped, and listed as such (default 5)
  LOGBOOK_CHECKPOINTS_MAX_FILES      a workspace with more files gets no checkpoints, and one notice
                                     saying so; the agent works on (default 100000)`;

export const CONV_DIR_HELP = `CONV_DIR may be left out: the newest conversation of the current folder (its
.logbook/conversations/, or the nearest folder above that has one) that logbook run started on this
machine is taken, and named on stderr.`;

export const POINT_HELP = `ID names a point of the conversation, the same way in show --at, diff and restore:
an event id or a checkpoint id (as [checkpoint] lines print it, the after-action one too), any
prefix of either that fits only one (an ambiguous one is refused, listing what it fits), #N (the
event at index N; a bare number too, when the log has that event: said on stderr), start (the
first event: the files as the agent found them) or now (the last event; also end).`;

export const PASS_ENV_HELP = `  --pass-env NAME        let the agent's shell see NAME although it is Logbook's own
                         (OPENAI_API_KEY, LOGBOOK_*); repeat for more names
  --mcp-config FILE      MCP servers whose tools the agent may use, in the {"mcpServers": {...}}
                         shape of Claude Desktop and Cline; approve/reject reuse the run's file
  --sandbox MODE         auto | required | off: commands (and MCP servers) run in a bubblewrap
                         sandbox; auto runs them unsandboxed, each asking first, where none can
                         start; required runs none then (default auto, or LOGBOOK_SANDBOX)
  --allow-host HOST      a host commands may reach through the sandbox (*.example.com for every
                         name under it); repeat for more (also LOGBOOK_SANDBOX_ALLOW_HOSTS)
  --deny-read PATH       hide PATH from commands besides the built-in secret locations (~/.ssh,
                         ~/.aws, ~/.config/logbook...); repeat (also LOGBOOK_SANDBOX_DENY_READ)
  --home-readable PATH   let commands read PATH of the home folder (read-only), which is empty
                         inside but for toolchains (~/.npm, ~/.cargo, ~/.pyenv...); repeat
                         (also LOGBOOK_SANDBOX_HOME_READABLE)
  --writable DIR         let commands write DIR besides the workspace (a cache, say); repeat
                         (also LOGBOOK_SANDBOX_WRITABLE); LOGBOOK_BWRAP names another bwrap;
                         LOGBOOK_SANDBOX_ALLOW_UNIX_SOCKETS=1 lets commands make Unix sockets
                         (and reach any they can see)`;
