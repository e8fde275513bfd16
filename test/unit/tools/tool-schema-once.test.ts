// A request's tool list is built at every step of a run; a tool's zod schema is converted to JSON
// schema once, and each caller still gets a copy of its own.
import assert from 'node:assert/strict';
import { defaultTools, parametersOf, toolDefinition, type ToolSpec } from '../../../src/core/tools';

describe('a tool’s JSON schema', () => {
  it('is converted from zod once per spec, however often a request lists the tool', () => {
    const terminal = defaultTools().find((t) => t.name === 'terminal')!;
    let reads = 0;
    // The conversion reads the spec's zod schema; validation reads it too, so count only here.
    const counted: ToolSpec = {
      ...terminal,
      get argsSchema() {
        reads++;
        return terminal.argsSchema;
      },
    };
    const first = toolDefinition(counted);
    for (let step = 0; step < 5; step++) toolDefinition(counted);
    parametersOf(counted);
    assert.equal(reads, 1);
    assert.deepEqual(toolDefinition(counted), first);
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
