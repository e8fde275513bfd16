// Writes docs/SETTINGS.md from the settings schema: npm run docs:settings.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { settingsReference } from '../src/core/settings/reference';

writeFileSync(join(__dirname, '..', 'docs', 'SETTINGS.md'), settingsReference());
