// The model's answer while it streams: text, reasoning and tool-call arguments as they arrive. Shown
// as the last row and dropped once the agent's real events land (or shortly after the stream ends).
// Deltas can come hundreds per second; the signal is updated at most once per frame.
import { signal } from '@preact/signals';
import type { StreamDelta } from '../../../src/protocol/messages';

export interface StreamingTool {
  index: number;
  name: string;
  args: string;
}

export interface LiveStream {
  text: string;
  reasoning: string;
  tools: StreamingTool[];
  ended: boolean;
}

/** Enough to show progress; the real event carries the full text. */
const MAX_CHARS = 400_000;
const ENDED_GRACE_MS = 15_000;

export const live = signal<LiveStream | null>(null);
let draft: LiveStream | null = null;
let scheduled = false;
let endedTimer: ReturnType<typeof setTimeout> | undefined;

function publish(): void {
  scheduled = false;
  live.value = draft ? { ...draft, tools: draft.tools.map((t) => ({ ...t })) } : null;
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // rAF pauses in a hidden page; the timeout keeps state current there too.
  const run = () => scheduled && publish();
  requestAnimationFrame(run);
  setTimeout(run, 100);
}

const cap = (s: string) => (s.length > MAX_CHARS ? s.slice(0, MAX_CHARS) : s);

export function applyDelta(delta: StreamDelta): void {
  // A failed attempt's partial reply is never recorded: the retry's stream replaces it.
  if (delta.type === 'discard') {
    clearStream();
    return;
  }
  if (delta.type === 'end') {
    if (!draft) return;
    draft.ended = true;
    clearTimeout(endedTimer);
    endedTimer = setTimeout(clearStream, ENDED_GRACE_MS);
    schedule();
    return;
  }
  if (!draft || draft.ended) {
    clearTimeout(endedTimer);
    draft = { text: '', reasoning: '', tools: [], ended: false };
  }
  if (delta.type === 'text') draft.text = cap(draft.text + delta.text);
  else if (delta.type === 'reasoning') draft.reasoning = cap(draft.reasoning + delta.text);
  else {
    let tool = draft.tools.find((t) => t.index === delta.index);
    if (!tool) {
      tool = { index: delta.index, name: '', args: '' };
      draft.tools.push(tool);
      draft.tools.sort((a, b) => a.index - b.index);
    }
    if (delta.name) tool.name = delta.name;
    tool.args = cap(tool.args + delta.argumentsDelta);
  }
  schedule();
}

export function clearStream(): void {
  clearTimeout(endedTimer);
  draft = null;
  scheduled = false;
  if (live.value !== null) live.value = null;
}
