// Writes l10n/bundle.l10n.json from the source: npm run l10n:bundle. Translations
// (l10n/bundle.l10n.LANG.json) are written by hand from it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { englishBundle } from './bundle';

const root = join(__dirname, '..', '..');
const { bundle, problems } = englishBundle(root);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
mkdirSync(join(root, 'l10n'), { recursive: true });
writeFileSync(join(root, 'l10n', 'bundle.l10n.json'), JSON.stringify(bundle, null, 2) + '\n');
