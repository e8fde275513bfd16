// Entry the extension host loads as `extensionTestsPath`: runs every bundled host suite with mocha
// and rejects on failure. The closing "N passed, N failed, N skipped" line is read by
// test/host/run.mjs. A stray `.only` fails the run instead of quietly running one test.
import Mocha from 'mocha';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec', forbidOnly: true });
  const dir = join(__dirname, 'suite');
  const only = process.env.LOGBOOK_HOST_GREP;
  if (only) mocha.grep(only);
  // The untrusted, multiroot and reload profiles run only their own suites (*.untrusted,
  // *.multiroot, *.reload), the trusted one everything else.
  const profile = process.env.LOGBOOK_HOST_PROFILE ?? 'trusted';
  const own = (n: string) => /\.(untrusted|multiroot|reload)\.test\.js$/.exec(n)?.[1] ?? 'trusted';
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.test.js'))
    .filter((n) => own(n) === profile)
    .sort();
  for (const f of files) mocha.addFile(join(dir, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const { passes = 0, pending = 0 } = runner.stats ?? {};
      console.log(`${passes} passed, ${failures} failed, ${pending} skipped`);
      if (failures > 0) reject(new Error(`${failures} host test(s) failed`));
      else resolve();
    });
  });
}
