// Started by test/unit/cli/secret-handoff.test.ts the way a launcher starts the CLI (fd 3 a pipe,
// the handoff variable set): receives the secrets, then prints what it and a child of its own see.
import { spawnSync } from 'node:child_process';
import { HANDOFF_ENV, receiveSecrets } from '../../src/host/node/cli/secret-handoff';

const received = receiveSecrets();
// A shell opens no fd 3 of its own: if it has one, it was inherited.
const child = spawnSync('sh', ['-c', 'if [ -e /proc/$$/fd/3 ]; then echo open; else echo closed; fi']);
process.stdout.write(
  JSON.stringify({
    received,
    key: process.env.OPENAI_API_KEY ?? null,
    marker: process.env[HANDOFF_ENV] ?? null,
    childFd3: child.stdout.toString().trim(),
  }),
);
