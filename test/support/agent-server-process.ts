// The real agent-server (agent-server.ts) from a process of its own, for the host suites: their
// bundle cannot run the setup script, which finds the repository from its own file. Prints one JSON
// line `{"url", "key", "home"}` once the server answers; stops it when stdin closes.
import { startAgentServer } from './agent-server';

void (async () => {
  const server = await startAgentServer();
  process.stdout.write(`${JSON.stringify({ url: server.url, key: server.key, home: server.home })}\n`);
  process.stdin.on('end', () => void server.stop().then(() => process.exit(0)));
  process.stdin.resume();
})().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
