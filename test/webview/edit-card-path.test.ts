// An edit card's path at a 300 px sidebar: the file name is shown whole and ends the path (the
// folder before it takes what room is left, cut from its start), and the tooltip holds the full
// path. Screenshots in each theme go to test-results/webview/edit-path-300-<theme>.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { editAction, editObservation, eid, makeHeader } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const PATHS = [
  'packages/server/src/config.js',
  '/home/dev/repo/packages/server/lib/config.js',
  'src/settings/index.ts',
  // Through a symlink: the card also says where the file really is, on the same line.
  'vendor/shared/config.js',
];
const REAL_PATH = '/home/dev/shared-configs/production/config.js';

function conversation(): ViewEvent[] {
  return PATHS.flatMap((path, i) => {
    const action = eid(10 + 2 * i);
    const result = editObservation(eid(11 + 2 * i), action, path, 'port = 1\n', 'port = 2\n');
    if (path.startsWith('vendor/'))
      (result as unknown as { observation: Record<string, unknown> }).observation.real_path = REAL_PATH;
    return [
      { seq: 2 * i, event: editAction(action, path, 'port = 1', 'port = 2') as EventJson },
      { seq: 2 * i + 1, event: result },
    ];
  });
}

interface PathView {
  title: string;
  /** The file name lies inside every box that clips it. */
  nameInside: boolean;
  /** Nothing of the path is drawn to the right of the file name. */
  nameEnds: boolean;
  /** No box holding the name cuts its own text (an ellipsis there could cover the name's start). */
  nameUncut: boolean;
  nameWidth: number;
  pathWidth: number;
}

/** The little of the DOM the page-side measure uses (the tests compile without the DOM's types). */
interface Rect {
  left: number;
  right: number;
  width: number;
}
interface DomNode {
  nodeType: number;
  childNodes: ArrayLike<DomNode>;
  parentElement: DomElement | null;
  data: string;
}
interface DomElement extends DomNode {
  scrollWidth: number;
  clientWidth: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Rect;
}
interface PageGlobals {
  document: {
    createRange(): {
      setStart(node: DomNode, offset: number): void;
      setEnd(node: DomNode, offset: number): void;
      selectNodeContents(node: DomNode): void;
      getBoundingClientRect(): Rect;
      getClientRects(): ArrayLike<Rect>;
    };
  };
  getComputedStyle(el: DomElement): { overflowX: string };
}

/** The page side: where the file name of each card's path is drawn, read from the layout. */
function measurePaths(els: unknown[]): PathView[] {
  const g = globalThis as unknown as PageGlobals;
  const textsOf = (node: DomNode): DomNode[] =>
    node.nodeType === 3 ? [node] : Array.from(node.childNodes).flatMap(textsOf);
  return (els as DomElement[]).map((el) => {
    const title = el.getAttribute('title') ?? '';
    const name = title.slice(title.search(/[^\\/]*$/));
    const last = textsOf(el)
      .filter((t) => t.data.includes(name))
      .pop()!;
    const range = g.document.createRange();
    const at = last.data.lastIndexOf(name);
    range.setStart(last, at);
    range.setEnd(last, at + name.length);
    const box = range.getBoundingClientRect();
    let inside = true;
    let uncut = true;
    for (let a = last.parentElement; a && a !== el.parentElement; a = a.parentElement) {
      if (g.getComputedStyle(a).overflowX === 'visible') continue;
      const clip = a.getBoundingClientRect();
      if (box.left < clip.left - 0.5 || box.right > clip.right + 0.5) inside = false;
      if (a.scrollWidth > a.clientWidth + 0.5) uncut = false;
    }
    const all = g.document.createRange();
    all.selectNodeContents(el);
    const drawnRight = Math.max(...Array.from(all.getClientRects()).map((r) => r.right));
    return {
      title,
      nameInside: inside,
      nameEnds: drawnRight <= box.right + 0.5,
      nameUncut: uncut,
      nameWidth: box.width,
      pathWidth: el.getBoundingClientRect().width,
    };
  });
}

describe('webview: an edit card at a 300 px sidebar shows the whole file name', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 1200 })));
  after(async () => h?.close());

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`${theme}: the name whole and last, the full path in the tooltip`, async () => {
      const p = await Panel.open(h, { theme });
      await p.showConversation(conversation(), makeHeader({ status: 'finished' }));
      await p.page
        .locator('.file-line')
        .nth(PATHS.length - 1)
        .waitFor();
      await p.page.screenshot({ path: join(SHOTS, `edit-path-300-${theme}.png`) });
      // The test runner names functions with a helper the page lacks (as in harness/measure.ts).
      await p.page.evaluate('globalThis.__name ??= (f) => f');
      const views = await p.page.locator('.file-line .file-path').evaluateAll(measurePaths);
      assert.deepEqual(
        views.map((v) => v.title),
        PATHS,
      );
      for (const v of views) {
        // Each name here fits the room a card's path has at 300 px.
        assert.ok(v.nameWidth < v.pathWidth + 0.5, `${v.title}: ${v.nameWidth} in ${v.pathWidth} px`);
        assert.ok(v.nameInside, `${v.title}: the name is clipped`);
        assert.ok(v.nameEnds, `${v.title}: something is drawn after the name`);
        assert.ok(v.nameUncut, `${v.title}: the name is in a box that cuts its text`);
      }
      assert.deepEqual(p.errors, []);
      await p.page.close();
    });
  }
});
