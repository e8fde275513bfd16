// The results table every benchmark prints and writes to its RESULTS file.

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

/** The report as `prettier --write` would leave it, so the generated file passes `npm run lint`. */
export async function prettierMarkdown(file: string, md: string): Promise<string> {
  try {
    const prettier = await import('prettier');
    return await prettier.format(md, { ...(await prettier.resolveConfig(file)), filepath: file });
  } catch {
    return md;
  }
}
