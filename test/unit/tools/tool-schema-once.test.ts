// A request's tool list is built at every step of a run; a tool's zod schema is converted to JSON
// schema once, and each caller still gets a copy of its own.
import assert from 'node:assert/strict';
import { defaultTools, parametersOf, toolDefinition, type ToolSpec } from '../../../src/core/tools';

describe('a tool’s JSON schema', () => {
  /** The terminal tool, its zod schema's reads counted (validation reads it too, so count only here). */
  function counted(keepComputed: boolean): { spec: ToolSpec; reads: () => number } {
    const terminal = defaultTools().find((t) => t.name === 'terminal')!;
    const { parametersJson, ...rest } = terminal;
    let reads = 0;
    const spec: ToolSpec = {
      ...rest,
      ...(keepComputed && parametersJson !== undefined ? { parametersJson } : {}),
      get argsSchema() {
        reads++;
        return terminal.argsSchema;
      },
    };
    return { spec, reads: () => reads };
  }

  it('is not converted at all for a built-in tool: its parameters were computed ahead', () => {
    const { spec, reads } = counted(true);
    const def = toolDefinition(spec);
    assert.equal(reads(), 0);
    assert.equal((def.function.parameters as { type?: unknown }).type, 'object');
  });

  it('is converted from zod once per spec, however often a request lists the tool', () => {
    const { spec, reads } = counted(false);
    const first = toolDefinition(spec);
    for (let step = 0; step < 5; step++) toolDefinition(spec);
    parametersOf(spec);
    assert.equal(reads(), 1);
    assert.deepEqual(toolDefinition(spec), first);
  });

  it('is a copy of its own for each caller: changing one changes no later request', () => {
    const [terminal] = defaultTools();
    const a = parametersOf(terminal!);
    (a.properties as Record<string, unknown>).extra = { type: 'string' };
    (a.required as string[]).push('extra');
    const b = parametersOf(terminal!);
    assert.equal((b.properties as Record<string, unknown>).extra, undefined);
    assert.ok(!(b.required as string[]).includes('extra'));
  });
});
