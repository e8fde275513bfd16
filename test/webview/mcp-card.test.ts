// MCP tool cards: arguments as JSON (open when short, folded when long), results as text and the
// images they carry, no UNKNOWN badge on a tool the server marks read-only, and the notice of a
// server that stopped; checked with axe and photographed in each theme at 300 px.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { eid, makeHeader } from './harness/events';
import { type Harness, Panel, ROOT, SHOTS, startHarness } from './support';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
/** A 4x4 red PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEklEQVR4nGP4z8CAB+GTG8HSALfKY52fTcuYAAAAAElFTkSuQmCC';

function mcpAction(id: string, tool: string, data: Record<string, unknown>, risk = 'UNKNOWN'): EventJson {
  return {
    kind: 'ActionEvent',
    id,
    source: 'agent',
    thought: [],
    action: { data, kind: 'MCPToolAction' },
    tool_name: tool,
    tool_call_id: `call-${id}`,
    tool_call: { id: `call-${id}`, name: tool, arguments: JSON.stringify(data), origin: 'completion' },
    llm_response_id: `resp-${id}`,
    security_risk: risk,
  };
}

function mcpObservation(
  id: string,
  actionId: string,
  tool: string,
  content: unknown[],
  isError = false,
): EventJson {
  return {
    kind: 'ObservationEvent',
    id,
    source: 'environment',
    tool_name: tool,
    tool_call_id: `call-${actionId}`,
    action_id: actionId,
    observation: { kind: 'MCPToolObservation', content, is_error: isError, tool_name: tool },
  };
}

const longArgs = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field_${i}`, `value ${i}`]));
const events = (): ViewEvent[] =>
  [
    mcpAction(eid(1), 'get-tiny-image', {}),
    mcpObservation(eid(2), eid(1), 'get-tiny-image', [
      { type: 'text', text: 'Here is the image' },
      { type: 'image', image_urls: [`data:image/png;base64,${PNG}`] },
      { type: 'image', image_urls: ['data:image/svg+xml;base64,PHN2Zy8+'] },
    ]),
    mcpAction(eid(3), 'echo', { message: 'hello from the test' }),
    mcpObservation(eid(4), eid(3), 'echo', [{ type: 'text', text: 'Echo: hello from the test' }]),
    mcpAction(eid(5), 'create_issue', longArgs, 'MEDIUM'),
    mcpObservation(eid(6), eid(5), 'create_issue', [{ type: 'text', text: 'rate limited' }], true),
    {
      kind: 'ConversationStateUpdateEvent',
      id: eid(7),
      source: 'environment',
      key: 'tool_source',
      value: { source: 'mcp:tracker', message: 'The MCP server "tracker" stopped (the connection closed).' },
    },
    {
      kind: 'ConversationStateUpdateEvent',
      id: eid(8),
      source: 'environment',
      key: 'tools_offered',
      value: {
        tools: ['echo', 'get-tiny-image', 'create_issue'].map((name) => ({
          type: 'function',
          function: { name, description: `The ${name} tool (MCP server "everything")`, parameters: {} },
        })),
        sha256: 'a'.repeat(64),
      },
    },
    {
      kind: 'ConversationStateUpdateEvent',
      id: eid(9),
      source: 'environment',
      key: 'tools_offered',
      value: { tools: [], sha256: null },
    },
  ].map((event, seq) => ({ seq, event }));

const card = (p: Panel, tool: string) =>
  p.page
    .locator('article[data-kind="ActionEvent"]')
    .filter({ has: p.page.locator('.tool-name', { hasText: tool }) });

describe('webview: MCP tool cards', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 2_000 })));
  after(async () => h?.close());

  it('arguments as JSON, images shown (raster only), errors marked, the unavailable server noticed', async () => {
    const p = await Panel.open(h, { theme: 'light' });
    try {
      await p.showConversation(events(), makeHeader({ status: 'finished' }));
      const echo = card(p, 'echo');
      assert.match(await echo.locator('.mcp-args pre').innerText(), /"message": "hello from the test"/);
      assert.match(await echo.innerText(), /Echo: hello from the test/);
      assert.equal(await echo.locator('.risk').count(), 0, 'no UNKNOWN badge on an unrated MCP tool');

      const image = card(p, 'get-tiny-image');
      assert.equal(await image.getByText('No arguments').count(), 1);
      const imgs = image.locator('.result-images img');
      assert.equal(await imgs.count(), 1, 'the PNG is shown, the SVG is not');
      assert.equal(
        await imgs.first().evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
        4,
      );
      assert.match(await image.innerText(), /1 image not shown/);

      const issue = card(p, 'create_issue');
      const toggle = issue.getByRole('button', { name: 'Arguments (12)' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'long arguments start folded');
      await toggle.click();
      assert.match(await issue.locator('.mcp-args pre').innerText(), /"field_11": "value 11"/);
      assert.match(await issue.innerText(), /The tool reported an error/);
      assert.equal(await issue.locator('.risk').innerText(), 'MEDIUM');

      assert.match(
        await p.page.locator('.notice').filter({ hasText: 'tracker' }).innerText(),
        /MCP server “tracker” is unavailable/,
      );
      // What the model was offered from outside, as recorded: the tools by name, then none.
      const offered = p.page.locator('.notice').filter({ hasText: 'offered' });
      assert.equal(await offered.count(), 2);
      assert.match(
        await offered.nth(0).innerText(),
        /Tools from outside offered: echo, get-tiny-image, create_issue/,
      );
      assert.match(await offered.nth(1).innerText(), /No tools from outside offered from here on/);
      assert.deepEqual(p.errors, []);
    } finally {
      await p.page.close();
    }
  });

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`${theme}: MCP cards pass axe at 300 px; screenshot saved`, async () => {
      const p = await Panel.open(h, { theme });
      try {
        await p.showConversation(events(), makeHeader({ status: 'finished' }));
        await p.page.screenshot({ path: join(SHOTS, `mcp-${theme}.png`) });
        await p.page.evaluate(AXE);
        const r = (await p.page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
          violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
        };
        const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(
          bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
        );
      } finally {
        await p.page.close();
      }
    });
  }
});
