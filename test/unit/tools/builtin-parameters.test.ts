// The parameters each built-in tool (and agent tool) is offered to the model with are computed ahead
// (src/core/tools/builtin-parameters.ts): they must be exactly what its zod schema gives, so a
// changed argument is never offered in its old shape.
import assert from 'node:assert/strict';
import { everyAgentTool } from '../../../src/core/agents/agent-tool-specs';
import { everyBuiltInTool } from '../../../src/core/tools/default-tools';
import { derivedParameters, parametersOf } from '../../../src/core/tools/tool-definition';

const REGENERATE =
  'run: node --import tsx scripts/builtin-parameters.ts && npx prettier --write src/core/tools/builtin-parameters.ts';

describe('built-in tools’ parameters computed ahead', () => {
  // The agent tools are offered in every run too (delegate and transfer to the main agent).
  for (const spec of [...everyBuiltInTool(), ...everyAgentTool()])
    it(`${spec.name}: the same as its zod schema gives`, () => {
      assert.ok(spec.parametersJson, `${spec.name} has no parameters computed ahead; ${REGENERATE}`);
      assert.deepEqual(
        JSON.parse(spec.parametersJson),
        derivedParameters(spec),
        `${spec.name}'s parameters differ from its schema; ${REGENERATE}`,
      );
      assert.deepEqual(parametersOf(spec), derivedParameters(spec));
    });

  it('a tool without them (an MCP server’s) still has its parameters derived', () => {
    const finish = everyBuiltInTool().find((t) => t.name === 'finish')!;
    const { parametersJson: _computed, ...derivedOnly } = finish;
    assert.deepEqual(parametersOf(derivedOnly), derivedParameters(finish));
  });
});
