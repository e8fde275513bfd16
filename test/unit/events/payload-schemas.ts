// Mocha hooks that pin the payload-schema registry for the enclosing describe, whatever ran before
// in this process: other test files register the real tools' schemas (defaultTools) and leave them.
import { unregisterPayloadSchema } from '../../../src/core/events';
import { savePayloadSchemas } from '../../../src/core/events/payloads';
import { defaultTools, registerToolPayloadSchemas } from '../../../src/core/tools';

/**
 * `registered`: the real tools' action/observation schemas validate payloads of their kinds.
 * `unregistered`: none of those kinds has a schema, so their payloads are open.
 * The registry is restored exactly as it was after the describe block.
 */
export function pinToolPayloadSchemas(mode: 'registered' | 'unregistered'): void {
  let restore: (() => void) | undefined;
  before(() => {
    restore = savePayloadSchemas();
    const tools = defaultTools();
    if (mode === 'registered') {
      registerToolPayloadSchemas(tools);
      return;
    }
    for (const tool of tools) {
      unregisterPayloadSchema('action', tool.actionKind);
      if (tool.observationKind) unregisterPayloadSchema('observation', tool.observationKind);
    }
  });
  after(() => restore?.());
}

/** Hooks for the enclosing describe: payloads of `kind` are open (no schema), restored afterwards. */
export function withoutPayloadSchema(which: 'action' | 'observation', kind: string): void {
  let restore: (() => void) | undefined;
  before(() => {
    restore = savePayloadSchemas();
    unregisterPayloadSchema(which, kind);
  });
  after(() => restore?.());
}
