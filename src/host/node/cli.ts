// `logbook`: the same core as the extension, without VS Code. Commands live in ./cli/.
import { processIo } from './cli/io';
import { dropSecretsFor } from './cli/secret-environment';
import { printableText } from '../../core/text/printable';

function run(): void {
  // Loaded only here: a command's code loads when it runs (scripts/lazy-bundles.mjs).
  import('./cli/main')
    .then(({ main }) => main(process.argv.slice(2), processIo()))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err: unknown) => {
        process.stderr.write(`logbook: ${printableText(String(err))}\n`);
        process.exitCode = 1;
      },
    );
}

// Commands that need no secret forget it at once; what the others start never inherits it (see
// secret-environment.ts).
try {
  dropSecretsFor(process.argv[2]);
  run();
} catch (err) {
  process.stderr.write(`logbook: ${printableText(err instanceof Error ? err.message : String(err))}\n`);
  process.exitCode = 1;
}
