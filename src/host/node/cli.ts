// `logbook`: the same core as the extension, without VS Code. Commands live in ./cli/.
import { processIo } from './cli/io';
import { dropSecretsFor } from './cli/secret-environment';
import { printableText } from '../../core/text/printable';
import { installCompileCache } from './cli/compile-cache';
import { usableCompileCacheDir, workspacesOf } from './cli/compile-cache-dir';

/** Before any command's bundle loads: its bytecode from an earlier run (compile-cache.ts). */
function useCompileCache(): void {
  const dir = usableCompileCacheDir(
    process.env,
    workspacesOf(process.argv.slice(2), process.cwd(), process.env),
  );
  const [command, ...rest] = process.argv.slice(2);
  const help = rest.some((a) => a === '--help' || a === '-h');
  if (dir) installCompileCache({ root: __dirname, dir, variant: `${command ?? ''}${help ? ' --help' : ''}` });
}

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
  useCompileCache();
  run();
} catch (err) {
  process.stderr.write(`logbook: ${printableText(err instanceof Error ? err.message : String(err))}\n`);
  process.exitCode = 1;
}
