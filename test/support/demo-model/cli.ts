// Runs the demo model on 127.0.0.1 for `npm start`; prints "listening on URL" once ready.
import { startDemoServer } from '../../../src/host/node/demo-model/demo-server';

async function main(): Promise<void> {
  const server = await startDemoServer('vscode');
  console.log(`Demo model listening on ${server.baseUrl}`);
  // The server does not hold the process open by itself (the CLI's demo must not): this does.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const stop = () => {
    clearInterval(keepAlive);
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
