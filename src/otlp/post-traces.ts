import type { KeyValue, OtlpSpan } from './otlp-json.ts';
import { traceRequest } from './otlp-json.ts';

/** Options of `postTraces`. */
export interface PostOptions {
  /** The collector's base URL (`http://127.0.0.1:4318`) or its full `/v1/traces` URL. */
  endpoint: string;
  resource: KeyValue[];
  version: string;
  /** Spans per request (default 512). */
  batchSpans?: number;
  /** Bytes of JSON per request at most, a single span over it going alone (default 4 MiB). */
  batchBytes?: number;
  /** Tries per request (default 5). */
  tries?: number;
  /** Waits between tries (default: `setTimeout`); ms doubles from 500 unless `Retry-After` says. */
  sleep?: (ms: number) => Promise<void>;
  headers?: Record<string, string>;
}

/** What `postTraces` sent. */
export interface PostReport {
  requests: number;
  spans: number;
  bytes: number;
  retries: number;
  /** Spans the collector said it rejected (`partialSuccess.rejectedSpans`). */
  rejected: number;
}

/**
 * Sends spans to an OTLP/HTTP collector as JSON (`POST {endpoint}/v1/traces`, `Content-Type:
 * application/json`), in batches bounded by span count and bytes (`batches`). A request that fails
 * to connect, or is answered 429, 502, 503 or 504, is tried again after a wait (doubling from 500 ms,
 * or the `Retry-After` seconds), up to `tries` times; any other non-2xx answer, or the last failure,
 * rejects with the status and the start of the body.
 * @param spans the spans (of one trace or many)
 * @param options endpoint, resource, batch bounds, tries
 * @returns what was sent
 */
export async function postTraces(spans: readonly OtlpSpan[], options: PostOptions): Promise<PostReport> {
  const url = /\/v1\/traces\/?$/.test(options.endpoint)
    ? options.endpoint
    : `${options.endpoint.replace(/\/+$/, '')}/v1/traces`;
  const tries = options.tries ?? 5;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const report: PostReport = { requests: 0, spans: 0, bytes: 0, retries: 0, rejected: 0 };
  for (const batch of batches(spans, options.batchSpans ?? 512, options.batchBytes ?? 4 * 1024 * 1024)) {
    const body = JSON.stringify(traceRequest(batch, options.resource, options.version));
    for (let attempt = 1; ; attempt++) {
      let wait = 500 * 2 ** (attempt - 1);
      let failure: string;
      try {
        const answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...options.headers },
          body,
        });
        const text = await answer.text();
        if (answer.ok) {
          report.rejected += rejectedSpans(text);
          break;
        }
        failure = `${url}: HTTP ${answer.status} ${text.slice(0, 200)}`;
        if (![429, 502, 503, 504].includes(answer.status)) throw new Error(failure);
        const after = Number(answer.headers.get('retry-after'));
        if (Number.isFinite(after) && after > 0) wait = after * 1000;
      } catch (error) {
        if (!(error instanceof TypeError)) throw error; // fetch's network failures are TypeErrors
        failure = `${url}: ${(error.cause as Error | undefined)?.message ?? error.message}`;
      }
      if (attempt >= tries) throw new Error(`${failure} (after ${tries} tries)`);
      report.retries++;
      await sleep(wait);
    }
    report.requests++;
    report.spans += batch.length;
    report.bytes += Buffer.byteLength(body);
  }
  return report;
}

/**
 * Cuts spans into batches of at most `maxSpans` spans and about `maxBytes` bytes of JSON each (a span
 * larger than `maxBytes` goes alone), in order.
 * @param spans the spans
 * @param maxSpans spans per batch
 * @param maxBytes bytes per batch
 * @returns the batches
 */
export function batches(spans: readonly OtlpSpan[], maxSpans: number, maxBytes: number): OtlpSpan[][] {
  const out: OtlpSpan[][] = [];
  let current: OtlpSpan[] = [];
  let bytes = 0;
  for (const span of spans) {
    const size = Buffer.byteLength(JSON.stringify(span)) + 1;
    if (current.length > 0 && (current.length >= maxSpans || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(span);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function rejectedSpans(text: string): number {
  try {
    const parsed = JSON.parse(text) as { partialSuccess?: { rejectedSpans?: unknown } };
    return Number(parsed.partialSuccess?.rejectedSpans ?? 0) || 0;
  } catch {
    return 0;
  }
}
