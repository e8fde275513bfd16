// zod as one bundle of its own (dist/lazy/zod.js, scripts/lazy-bundles.mjs) that the main bundles and
// the lazy ones all require: its code is shipped and parsed once, and its schemas are one instance.
import { config, locales } from 'zod';

export * from 'zod';
export { default } from 'zod';
// The protocol's messages are written in zod/mini (the webview's bundle stays small); the extension
// reads them through this same bundle, over the same core.
export * as mini from 'zod/mini';

// English error messages for both, as soon as zod loads (full zod sets them only when its first
// schema is built, zod/mini never): a refused message says what was wrong before any schema of
// full zod exists. Loaded on first use, so this runs then, not at activation.
if (!config().localeError) config(locales.en());
