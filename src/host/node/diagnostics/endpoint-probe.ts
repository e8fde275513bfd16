// Whether the model endpoint answers, and whether it knows the model: one GET of …/models with the
// key, as the client would send it. The key goes only into that request's header; nothing this
// returns holds it, and the endpoint is named without the credentials a URL may carry.
import type { DiagnosticRow } from '../../../core/diagnostics/report';
import { ENGLISH, type L10n } from '../../../core/text/l10n';
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
  l10n: L10n = ENGLISH,
): DiagnosticRow[] {
  const keyHint = words.setKey;
  const endpoint = withoutUrlCredentials(input.baseUrl);
  const local = isLocal(input.baseUrl);
  const rows: DiagnosticRow[] = [];
  const label = l10n.t('Endpoint');
  if (!probe.reachable) {
    rows.push({
      label,
      value: l10n.t('{0}: not reachable ({1})', endpoint, probe.problem),
      status: 'error',
      fix: local
        ? l10n.t('Start the local model server, or correct {0}.', words.baseUrl)
        : l10n.t(
            'Check the address in {0} and the network (a proxy or firewall may block it).',
            words.baseUrl,
          ),
    });
  } else if (probe.status === 401 || probe.status === 403) {
    rows.push({
      label,
      value: l10n.t('{0}: refused the key (HTTP {1})', endpoint, probe.status),
      status: 'error',
      fix: l10n.t('Set a valid key: {0}.', keyHint),
    });
  } else {
    rows.push({
      label,
      value: l10n.t('{0}: reachable (HTTP {1})', endpoint, probe.status),
      status: probe.status < 500 ? 'ok' : 'warning',
    });
  }
  rows.push(
    input.apiKey
      ? { label: l10n.t('API key'), value: l10n.t('set (never shown)'), status: 'ok' }
      : {
          label: l10n.t('API key'),
          value: l10n.t('not set'),
          status: local ? 'info' : 'warning',
          ...(local ? {} : { fix: `${keyHint}.` }),
        },
  );
  rows.push(modelRow(input.model, probe, l10n));
  return rows;
}

function modelRow(model: string, probe: EndpointProbe, l10n: L10n): DiagnosticRow {
  const label = l10n.t('Model');
  if (!probe.reachable || probe.status >= 400 || probe.models === null) {
    return { label, value: l10n.t('{0} (the endpoint did not list its models)', model), status: 'info' };
  }
  if (probe.models.includes(model))
    return { label, value: l10n.t('{0}: offered by the endpoint', model), status: 'ok' };
  const some = probe.models.slice(0, 5).join(', ');
  return {
    label,
    value: l10n.t('{0}: not among the {1} models the endpoint lists', model, probe.models.length),
    status: 'warning',
    fix: some
      ? l10n.t('Pick one it offers ({0}).', `${some}${probe.models.length > 5 ? ', …' : ''}`)
      : l10n.t('Pick one it offers.'),
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
