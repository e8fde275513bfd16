// Zod compiles fast parsers with `new Function` unless told not to; the webview's CSP forbids eval
// (and each attempt would log a CSP violation), so it runs jitless. Imported first by main.tsx.
import * as z from 'zod/mini';

z.config({ jitless: true });
// zod/mini comes without error messages: without them a refused message would only say "Invalid input".
if (!z.config().localeError) z.config(z.locales.en());
