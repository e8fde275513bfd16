// The results table every benchmark prints and writes to its RESULTS file.
import os from 'node:os';

export interface Row {
  workload: string;
  metric: string;
  value: string;
  target: string;
  /** null: informational, no target. */
  pass: boolean | null;
}

export function resultsTable(rows: readonly Row[]): string {
  const head = '| workload | metric | measured | target | result |\n|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.workload} | ${r.metric} | ${r.value} | ${r.target} | ${r.pass === null ? '' : r.pass ? 'PASS' : 'FAIL'} |`,
  );
  return [head, ...lines].join('\n');
}

/** The "## Machine" list the markdown reports share: what ran the bench, and how loaded it was. */
export function machineLines(opts: {
  loadAtStart: readonly number[];
  wallMs: number;
  extra?: readonly string[];
}): string[] {
  return [
    '## Machine',
    '',
    `- cpu: ${os.cpus()[0]?.model ?? 'unknown'}`,
    `- cores: ${os.cpus().length}`,
    `- node: ${process.version}`,
    ...(opts.extra ?? []).map((line) => `- ${line}`),
    `- load average at start / end (1 min; others share these cores): ${opts.loadAtStart[0]!.toFixed(1)} / ${os.loadavg()[0]!.toFixed(1)}`,
    `- bench wall time: ${(opts.wallMs / 1000).toFixed(1)} s`,
  ];
}

/** The report as `prettier --write` would leave it, so the generated file passes `npm run lint`. */
export async function prettierMarkdown(file: string, md: string): Promise<string> {
  try {
    const prettier = await import('prettier');
    return await prettier.format(md, { ...(await prettier.resolveConfig(file)), filepath: file });
  } catch {
    return md;
  }
}
