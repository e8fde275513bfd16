// From a server's `tools/call` result to the MCPToolObservation payload the log keeps (OpenHands'
// shape: `content` of text and image parts, `is_error`, `tool_name`). Text, images and embedded
// resources are kept; other blocks become a line saying what was left out. A result that is not
// a result at all, or is too large to hold, becomes an error the model reads, never a crash.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ToolContext, ToolObservation } from '../tools/tool';
import { capMiddle, formatCount } from '../tools/output-cap';

export const MCP_OBSERVATION_KIND = 'MCPToolObservation';

export interface ResultLimits {
  /** Characters of text the model reads; the whole text is saved to the scratch folder. */
  maxChars: number;
  /** Largest result accepted at all (its JSON size); past it the call is an error. */
  maxResultBytes: number;
  /** Largest single image kept (its base64 size); a larger one is described instead. */
  maxImageBytes: number;
}

export const DEFAULT_RESULT_LIMITS: ResultLimits = {
  maxChars: 30_000,
  maxResultBytes: 8 * 1024 * 1024,
  maxImageBytes: 2 * 1024 * 1024,
};

const Block = lazySchema(() => z.looseObject({ type: z.string() }));
const ResultSchema = lazySchema(() =>
  z.looseObject({
    content: z.array(Block).optional(),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean().optional(),
  }),
);

type Part = ToolObservation['content'][number];

export interface ResultContext {
  server: string;
  /** Who answered, as error messages name it (default: the MCP server "NAME"). */
  from?: string;
  /** The tool's own name on the server (OpenHands records it as `tool_name`). */
  tool: string;
  limits: ResultLimits;
  ctx: Pick<ToolContext, 'ports'>;
}

export async function observationFromResult(raw: unknown, rc: ResultContext): Promise<ToolObservation> {
  const size = jsonSize(raw);
  if (size > rc.limits.maxResultBytes)
    return mcpError(
      rc.tool,
      `${origin(rc)} returned a result of ${mib(size)} for ${rc.tool}, over the ` +
        `${mib(rc.limits.maxResultBytes)} a result may have; it was dropped.`,
    );
  const parsed = ResultSchema.safeParse(raw);
  if (!parsed.success || (!parsed.data.content && !parsed.data.structuredContent))
    return mcpError(
      rc.tool,
      `${origin(rc)} returned a malformed result for ${rc.tool}: ` +
        (parsed.success ? 'it has no content.' : parsed.error.issues.map((i) => i.message).join('; ')),
    );
  const { content = [], structuredContent, isError = false } = parsed.data;
  const parts: Part[] = content.map((block) => partOf(block, rc.limits));
  if (parts.length === 0 && structuredContent)
    parts.push({ type: 'text', text: JSON.stringify(structuredContent, null, 2) });
  return {
    kind: MCP_OBSERVATION_KIND,
    content: await capText(mergeText(parts), rc),
    is_error: isError,
    tool_name: rc.tool,
  };
}

function origin(rc: ResultContext): string {
  return rc.from ?? `The MCP server "${rc.server}"`;
}

export function mcpError(tool: string, text: string): ToolObservation {
  return { kind: MCP_OBSERVATION_KIND, content: [{ type: 'text', text }], is_error: true, tool_name: tool };
}

function partOf(block: z.infer<typeof Block>, limits: ResultLimits): Part {
  const b = block as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  switch (b.type) {
    case 'text':
      return { type: 'text', text: str(b.text) ?? '' };
    case 'image':
      return image(str(b.mimeType), str(b.data), limits) ?? note('an image it could not show', b);
    case 'audio':
      return note(`audio (${str(b.mimeType) ?? 'unknown type'}) that cannot be shown`, b);
    case 'resource_link':
      return {
        type: 'text',
        text: `[Resource link: ${str(b.name) ?? str(b.uri) ?? '?'} ${str(b.uri) ?? ''}${str(b.mimeType) ? ` (${str(b.mimeType)})` : ''}]`,
      };
    case 'resource': {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      const uri = str(r.uri) ?? '?';
      if (typeof r.text === 'string')
        return {
          type: 'text',
          text: `[Resource ${uri}${str(r.mimeType) ? ` (${str(r.mimeType)})` : ''}]\n${r.text}`,
        };
      if (typeof r.blob === 'string' && str(r.mimeType)?.startsWith('image/'))
        return image(str(r.mimeType), r.blob, limits) ?? note(`the image resource ${uri}`, r);
      return note(`the resource ${uri} (${str(r.mimeType) ?? 'binary'}), which cannot be shown as text`, r);
    }
    default:
      return note(`a block of the unknown type "${String(b.type).slice(0, 40)}"`, b);
  }
}

function image(mime: string | undefined, data: string | undefined, limits: ResultLimits): Part | undefined {
  if (!mime || !data || !/^image\/[\w.+-]+$/.test(mime) || !/^[A-Za-z0-9+/=\s]*$/.test(data))
    return undefined;
  if (data.length > limits.maxImageBytes) return undefined;
  return { type: 'image', image_urls: [`data:${mime};base64,${data.replace(/\s/g, '')}`] };
}

function note(what: string, block: Record<string, unknown>): Part {
  const size =
    typeof block.data === 'string'
      ? block.data.length
      : typeof block.blob === 'string'
        ? block.blob.length
        : 0;
  return {
    type: 'text',
    text: `[The tool returned ${what}${size ? `, ${kib(size)} of data` : ''}; it was left out.]`,
  };
}

/** Adjacent text parts as one, so the cap sees the whole text. */
function mergeText(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (p.type === 'text' && last?.type === 'text')
      out[out.length - 1] = { type: 'text', text: `${last.text}\n${p.text}` };
    else out.push(p);
  }
  return out;
}

/** Text past the cap is kept whole in the scratch folder; the model gets head, tail and where it is. */
async function capText(parts: Part[], rc: ResultContext): Promise<Part[]> {
  const total = parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
  if (total <= rc.limits.maxChars) return withImageNotes(parts);
  const whole = parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  let where = 'it could not be saved';
  try {
    where = `the whole text is in ${await rc.ctx.ports.scratch.save(`mcp-${rc.server}-${rc.tool}.txt`, whole)}`;
  } catch {
    // the head and tail still reach the model
  }
  const capped = capMiddle(
    whole,
    rc.limits.maxChars,
    (removed) => `[... ${formatCount(removed)} characters left out; ${where} ...]`,
  );
  return withImageNotes([{ type: 'text', text: capped.text }, ...parts.filter((p) => p.type === 'image')]);
}

/** The model reads only text: each image gets a line saying it was shown to the user. */
function withImageNotes(parts: Part[]): Part[] {
  return parts.flatMap((p) =>
    p.type === 'image'
      ? [
          p,
          {
            type: 'text' as const,
            text: `[An image (${p.image_urls[0]?.slice(5, p.image_urls[0].indexOf(';')) ?? 'image'}) was returned and shown to the user.]`,
          },
        ]
      : [p],
  );
}

function jsonSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
