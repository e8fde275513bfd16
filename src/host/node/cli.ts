// `logbook`: the same core as the extension, without VS Code. Commands live in ./cli/.
import { processIo } from './cli/io';
import { dropSecretsFor, receiveSecrets, relaunchWithoutSecrets } from './cli/secret-handoff';
import { printableText } from '../../core/text/printable';

function run(): void {
  // Loaded only here: a launcher (see secret-handoff.ts) never evaluates the rest of the CLI.
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

// Started with the key in its environment, the CLI runs as a second process without it, but for
// commands that need no secret (see dropSecretsFor).
try {
  if (receiveSecrets() || dropSecretsFor(process.argv[2]) || !relaunchWithoutSecrets()) run();
} catch (err) {
  process.stderr.write(`logbook: ${printableText(err instanceof Error ? err.message : String(err))}\n`);
  process.exitCode = 1;
}
