// Runs the scripted LLM server from a shell, for interactive demos and out-of-process tests:
//   node --import tsx test/support/llm-server/cli.ts --scenario FILE [--port N]
import { resolve } from 'node:path';
import { startScriptedLlm } from './server';

const USAGE = 'usage: cli.ts [--scenario FILE] [--port N]';

function parseArgs(argv: string[]): { scenarioFile?: string; port?: number } {
  const options: { scenarioFile?: string; port?: number } = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if ((flag !== '--scenario' && flag !== '--port') || value === undefined) {
      throw new Error(`unexpected argument ${JSON.stringify(flag)}\n${USAGE}`);
    }
    i++;
    if (flag === '--scenario') options.scenarioFile = resolve(value);
    else {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`invalid port ${JSON.stringify(value)}`);
      options.port = port;
    }
  }
  return options;
}

async function main(): Promise<void> {
  const server = await startScriptedLlm(parseArgs(process.argv.slice(2)));
  console.log(`LLM server listening on ${server.baseUrl}`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
