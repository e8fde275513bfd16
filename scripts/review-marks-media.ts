// Pictures of the review marks, to look at with your own eyes (not a test: nothing is compared):
// the agent replaces a line of src/math.js, the edit is confirmed, and the file is left open with
// its marks (the added lines' background, the row that shows the removed text where it was, the
// per-hunk Accept and Reject). Then one hunk is accepted and the marks must go. Each state is
// taken at a 300 px sidebar in Light, Dark and High Contrast, under test-results/e2e/<run>/.
// Run: node --import tsx scripts/review-marks-media.ts
import { openWorkbench, screenshotRoot, setSidebarWidth, setTheme } from '../test/e2e/support/workbench';
import { shot, THEMES, themeSlug } from './media-shots';

const EDIT = {
  id: 'call_edit',
  name: 'file_editor',
  arguments: {
    command: 'str_replace',
    path: 'src/math.js',
    old_str: 'module.exports = { add };',
    new_str: 'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };',
    security_risk: 'MEDIUM',
    summary: 'Add subtract() to src/math.js',
  },
};

/** One session in `theme`, set first: later the chat takes the focus from the palette. */
async function session(theme: string): Promise<void> {
  const wb = await openWorkbench({
    name: `review-marks-${themeSlug(theme)}`,
    settings: { 'logbook.confirmation.mode': 'always' },
    scenario: {
      name: 'review-marks-media',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [EDIT] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Added subtract() to src/math.js.' } },
      ],
    },
  });
  try {
    await setTheme(wb, theme);
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    const chat = wb.chatFrame();
    await wb.startTask('Add a subtract function to src/math.js');
    const bar = chat.locator('section.approval', { hasText: 'Add subtract() to src/math.js' });
    await bar.waitFor({ timeout: 60_000 });
    await shot(wb, 'asked', theme);
    await bar.getByRole('button', { name: 'Confirm' }).click();
    await chat.getByText('Added subtract() to src/math.js.').first().waitFor({ timeout: 60_000 });
    // The confirmed edit stays open with its marks.
    await wb.page.locator('.codelens-decoration').first().waitFor({ timeout: 30_000 });
    await shot(wb, 'marks', theme);
    await wb.page
      .locator('.codelens-decoration a', { hasText: /Accept/ })
      .first()
      .click();
    await wb.page.waitForTimeout(1_500);
    await shot(wb, 'accepted', theme);
  } finally {
    await wb.close();
  }
}

void (async () => {
  console.log(`pictures: ${screenshotRoot}`);
  for (const theme of THEMES) await session(theme);
})().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
