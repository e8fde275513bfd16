// `logbook`: the same core as the extension, without VS Code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const USAGE = `Usage: logbook <command> [options]

Commands:
  --version     print the version
  --help        print this help`;

export function main(argv: string[]): number {
  const [cmd] = argv;
  if (cmd === '--version' || cmd === '-v') {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    console.log(pkg.version);
    return 0;
  }
  console.log(USAGE);
  return cmd === undefined || cmd === '--help' || cmd === '-h' ? 0 : 2;
}

process.exitCode = main(process.argv.slice(2));
