// meta.json of a segment log: format, sparse stride, checkpoint, and where a clean close ended.
import fs from 'node:fs';

export const META = 'meta.json';

export interface Meta {
  format: 'logbook-segment-log';
  version: 1;
  stride: number;
  /** records [0, checkpoint) are covered by the synced sparse.idx and ids.idx */
  checkpoint: number;
  /** written by a clean close only: where the log ended and where its last record starts */
  end?: { segNo: number; offset: number; last: number };
}

export function readMeta(file: string): Meta | 'missing' | 'invalid' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'invalid';
  }
  try {
    const m = JSON.parse(text) as Partial<Meta>;
    if (m.format !== 'logbook-segment-log' || m.version !== 1) return 'invalid';
    if (!Number.isInteger(m.stride) || m.stride! < 1 || !Number.isInteger(m.checkpoint) || m.checkpoint! < 0)
      return 'invalid';
    const e = m.end;
    if (e !== undefined && ![e.segNo, e.offset, e.last].every((v) => Number.isInteger(v) && v >= 0)) {
      return 'invalid';
    }
    return m as Meta;
  } catch {
    return 'invalid';
  }
}

export function metaText(stride: number, checkpoint: number, end?: Meta['end']): string {
  const meta: Meta = {
    format: 'logbook-segment-log',
    version: 1,
    stride,
    checkpoint,
    ...(end ? { end } : {}),
  };
  return JSON.stringify(meta) + '\n';
}
