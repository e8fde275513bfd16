// For an export that must stand alone (OpenHands reads `image_urls` as URLs it can send): every
// stored-image reference in an event becomes the image's data URL. A reference whose file is gone
// stays as it was, so nothing recorded is dropped.
import type { Event } from '../events';
import { storedImageName } from './image-store';

type Load = (url: string) => Promise<string | undefined>;

/** The event with its stored images inlined; the same object when it refers to none. */
export async function inlineImages<E extends Event>(event: E, load: Load): Promise<E> {
  if (event.kind === 'MessageEvent') {
    const content = await inlineContent(event.llm_message.content, load);
    return content ? ({ ...event, llm_message: { ...event.llm_message, content } } as E) : event;
  }
  if (event.kind === 'ObservationEvent' && event.observation.content) {
    const content = await inlineContent(event.observation.content, load);
    return content ? ({ ...event, observation: { ...event.observation, content } } as E) : event;
  }
  return event;
}

async function inlineContent<C extends { type: string }>(
  content: readonly C[],
  load: Load,
): Promise<C[] | undefined> {
  let changed = false;
  const out: C[] = [];
  for (const part of content) {
    const urls = (part as { image_urls?: unknown }).image_urls;
    if (
      part.type !== 'image' ||
      !Array.isArray(urls) ||
      !urls.some((u) => typeof u === 'string' && storedImageName(u))
    ) {
      out.push(part);
      continue;
    }
    changed = true;
    const inlined: string[] = [];
    for (const u of urls as string[]) inlined.push(storedImageName(u) ? ((await load(u)) ?? u) : u);
    out.push({ ...part, image_urls: inlined });
  }
  return changed ? out : undefined;
}
