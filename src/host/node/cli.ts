// `logbook`: the same core as the extension, without VS Code. Commands live in ./cli/.
import { main } from './cli/main';
import { processIo } from './cli/io';

main(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`logbook: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
