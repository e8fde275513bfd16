// The real agent-server (agent-server.ts) from a process of its own, for the host suites: their
// bundle cannot run the setup script, which finds the repository from its own file. Prints one JSON
// line `{"url", "key", "home"}` once the server answers; stops it when stdin closes.
import { type AgentServer, startAgentServer } from './agent-server';

// Lines on stdin: `kill` (SIGKILL: the server disappears without a word), `restart` (started again on
// the same port and folder, with the conversations it kept, the same key); each answered with a JSON
// line once done. The end of stdin stops it.
void (async () => {
  let server: AgentServer = await startAgentServer();
  const { url, key, home } = server;
  const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
  say({ url, key, home });
  let pending = '';
  let queue = Promise.resolve();
  process.stdin.on('data', (d: Buffer) => {
    pending += d.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      queue = queue.then(async () => {
        if (line === 'kill') {
          server.kill();
          // Answered once nothing listens there any more.
          while (
            await fetch(`${url}/alive`).then(
              () => true,
              () => false,
            )
          )
            await new Promise((r) => setTimeout(r, 50));
          say({ killed: true });
        } else if (line === 'restart') {
          server = await startAgentServer({ key, home, port: Number(new URL(url).port) });
          say({ restarted: true });
        }
      });
    }
  });
  process.stdin.on('end', () => void queue.then(() => server.stop()).then(() => process.exit(0)));
  process.stdin.resume();
})().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
