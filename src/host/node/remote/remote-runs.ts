// `logbook run --remote` and `--runtime-api`: the agent-server's and the runtime API's clients, a
// bundle of their own (scripts/lazy-bundles.mjs) that a run on this machine never loads.
export { runRemote } from './remote-command';
export { runOnRuntime } from './runtime-command';
