// Whether the model endpoint answers, and whether it knows the model: one GET of …/models with the
// key, as the client would send it. The key goes only into that request's header; nothing this
// returns holds it, and the endpoint is named without the credentials a URL may carry.
import type { DiagnosticRow } from '../../../core/diagnostics/report';
import { redactUrlCredentials, withoutUrlCredentials } from '../../../core/secrets/url-secrets';

export interface EndpointProbeInput {
  baseUrl: string;
  model: string;
  apiKey?: string;
  extraHeaders?: Record<string, string> | null;
  probeTimeoutMs?: number;
}

export type EndpointProbe =
  { reachable: true; status: number; models: string[] | null } | { reachable: false; problem: string };

const DEFAULT_TIMEOUT_MS = 5_000;

export async function probeEndpoint(input: EndpointProbeInput): Promise<EndpointProbe> {
  const url = `${input.baseUrl.replace(/\/+$/, '')}/models`;
  const headers: Record<string, string> = { ...(input.extraHeaders ?? {}) };
  if (input.apiKey) headers.Authorization = `Bearer ${input.apiKey}`;
  const timeoutMs = input.probeTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const res = await fetch(withoutUrlCredentials(url), {
      headers: { ...basicAuth(url), ...headers },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    let models: string[] | null = null;
    if (res.ok) {
      const body = (await res.json().catch(() => null)) as { data?: unknown } | null;
      if (body && Array.isArray(body.data)) {
        models = body.data
          .map((m: unknown) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
          .filter((id): id is string => typeof id === 'string');
      }
    } else {
      await res.body?.cancel().catch(() => undefined);
    }
    return { reachable: true, status: res.status, models };
  } catch (err) {
    return { reachable: false, problem: networkProblem(err, timeoutMs, input) };
  }
}

/** Credentials written into the URL become a Basic header, as the client sends them. */
function basicAuth(url: string): Record<string, string> {
  const u = new URL(url);
  if (!u.username && !u.password) return {};
  const pair = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  return { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

function networkProblem(err: unknown, timeoutMs: number, input: EndpointProbeInput): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const said = e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
  let text = redactUrlCredentials(said);
  if (input.apiKey) text = text.split(input.apiKey).join('[redacted]');
  return text;
}

/** The model section's rows for an OpenAI-compatible endpoint. */
/** How the host names its settings, for the fixes. */
export interface EndpointWords {
  /** How to set the key, e.g. "run Logbook: Set API Key". */
  setKey: string;
  /** Where the endpoint's address is set. */
  baseUrl: string;
}

export function endpointRows(
  input: EndpointProbeInput,
  probe: EndpointProbe,
  words: EndpointWords,
): DiagnosticRow[] {
  const keyHint = words.setKey;
  const endpoint = withoutUrlCredentials(input.baseUrl);
  const local = isLocal(input.baseUrl);
  const rows: DiagnosticRow[] = [];
  if (!probe.reachable) {
    rows.push({
      label: 'Endpoint',
      value: `${endpoint}: not reachable (${probe.problem})`,
      status: 'error',
      fix: local
        ? `Start the local model server, or correct ${words.baseUrl}.`
        : `Check the address in ${words.baseUrl} and the network (a proxy or firewall may block it).`,
    });
  } else if (probe.status === 401 || probe.status === 403) {
    rows.push({
      label: 'Endpoint',
      value: `${endpoint}: refused the key (HTTP ${probe.status})`,
      status: 'error',
      fix: `Set a valid key: ${keyHint}.`,
    });
  } else {
    rows.push({
      label: 'Endpoint',
      value: `${endpoint}: reachable (HTTP ${probe.status})`,
      status: probe.status < 500 ? 'ok' : 'warning',
    });
  }
  rows.push(
    input.apiKey
      ? { label: 'API key', value: 'set (never shown)', status: 'ok' }
      : {
          label: 'API key',
          value: 'not set',
          status: local ? 'info' : 'warning',
          ...(local ? {} : { fix: `${keyHint}.` }),
        },
  );
  rows.push(modelRow(input.model, probe));
  return rows;
}

function modelRow(model: string, probe: EndpointProbe): DiagnosticRow {
  if (!probe.reachable || probe.status >= 400 || probe.models === null) {
    return { label: 'Model', value: `${model} (the endpoint did not list its models)`, status: 'info' };
  }
  if (probe.models.includes(model))
    return { label: 'Model', value: `${model}: offered by the endpoint`, status: 'ok' };
  const some = probe.models.slice(0, 5).join(', ');
  return {
    label: 'Model',
    value: `${model}: not among the ${probe.models.length} models the endpoint lists`,
    status: 'warning',
    fix: `Pick one it offers${some ? ` (${some}${probe.models.length > 5 ? ', …' : ''})` : ''}.`,
  };
}

function isLocal(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}
