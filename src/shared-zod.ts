// zod as one bundle of its own (dist/lazy/zod.js, scripts/lazy-bundles.mjs) that the main bundles and
// the lazy ones all require: its code is shipped and parsed once, and its schemas are one instance.
export * from 'zod';
export { default } from 'zod';
// The protocol's messages are written in zod/mini (the webview's bundle stays small); the extension
// reads them through this same bundle, over the same core.
export * as mini from 'zod/mini';
