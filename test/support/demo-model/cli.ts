// Runs the demo model on 127.0.0.1 for `npm start`; prints "listening on URL" once ready.
import { startScriptedLlm } from '../llm-server';
import { demoReply } from './demo-model';

async function main(): Promise<void> {
  const server = await startScriptedLlm({
    scenario: { name: 'demo', models: ['demo'], turns: [] },
    respond: demoReply,
  });
  console.log(`Demo model listening on ${server.baseUrl}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
