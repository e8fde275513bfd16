// Moves package.json's user-facing strings into package.nls.json and refreshes the settings'
// descriptions there from the settings schema: npm run l10n:manifest.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../../src/core/settings';
import { localizeManifest } from './manifest-nls';

const root = join(__dirname, '..', '..');
const manifestFile = join(root, 'package.json');
const nlsFile = join(root, 'package.nls.json');
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
let nls: Record<string, string> = {};
try {
  nls = readJson(nlsFile) as Record<string, string>;
} catch {
  // The first run starts from no package.nls.json.
}
const descriptions = Object.fromEntries(SETTINGS.map((s) => [`logbook.${s.key}`, s.description]));
const out = localizeManifest(readJson(manifestFile) as never, nls, descriptions);
writeFileSync(manifestFile, JSON.stringify(out.manifest, null, 2) + '\n');
writeFileSync(nlsFile, JSON.stringify(out.nls, null, 2) + '\n');
