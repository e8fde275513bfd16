// The parameters each built-in tool is offered to the model with are computed ahead
// (src/core/tools/builtin-parameters.ts): they must be exactly what its zod schema gives, so a
// changed argument is never offered in its old shape.
import assert from 'node:assert/strict';
import { everyBuiltInTool } from '../../../src/core/tools/default-tools';
import { derivedParameters, parametersOf } from '../../../src/core/tools/tool-definition';

const REGENERATE =
  'run: node --import tsx scripts/builtin-parameters.ts && npx prettier --write src/core/tools/builtin-parameters.ts';

describe('built-in tools’ parameters computed ahead', () => {
  for (const spec of everyBuiltInTool())
    it(`${spec.name}: the same as its zod schema gives`, () => {
      assert.ok(spec.parametersJson, `${spec.name} has no parameters computed ahead; ${REGENERATE}`);
      assert.deepEqual(
        JSON.parse(spec.parametersJson),
        derivedParameters(spec),
        `${spec.name}'s parameters differ from its schema; ${REGENERATE}`,
      );
      assert.deepEqual(parametersOf(spec), derivedParameters(spec));
    });

  it('a tool without them (an MCP server’s, an agent’s) still has its parameters derived', () => {
    const finish = everyBuiltInTool().find((t) => t.name === 'finish')!;
    const { parametersJson: _computed, ...derivedOnly } = finish;
    assert.deepEqual(parametersOf(derivedOnly), derivedParameters(finish));
  });
});
