// What the picture scripts (scripts/*-media.ts) share: the themes they are taken in, a picture of
// the window named for its step and theme, and answering the palette's quick inputs.
import type { Workbench } from '../test/e2e/support/workbench';

export const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];

/** A theme as it goes in a picture's file name: "Dark High Contrast" is "dark-high-contrast". */
export const themeSlug = (theme: string): string => theme.replace(/\s+/g, '-').toLowerCase();

/** A picture named `step`-`theme`, the mouse parked in a corner and the window settled `settleMs`. */
export async function shot(wb: Workbench, step: string, theme: string, settleMs = 600): Promise<void> {
  const size = wb.page.viewportSize();
  if (size) await wb.page.mouse.move(size.width - 4, size.height - 40);
  await wb.page.waitForTimeout(settleMs);
  await wb.shot(`${step}-${themeSlug(theme)}`);
}

/** Answers the quick input showing `title` with `value` (a text, or the label of a pick). */
export async function answer(wb: Workbench, title: string, value: string): Promise<void> {
  const widget = wb.page.locator('.quick-input-widget', { hasText: title });
  await widget.waitFor();
  const box = wb.page.locator('.quick-input-widget .quick-input-box input');
  await box.fill(value);
  await box.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => box.press('Enter'));
}
