/**
 * OTLP/JSON (the proto3 JSON mapping of `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest`),
 * written by hand: lowerCamelCase field names, trace and span ids as hex (OTLP's exception to
 * base64 bytes), 64-bit integers (`startTimeUnixNano`, `intValue`) as decimal strings, enums as numbers.
 */

/** An attribute value (`AnyValue`): one of its fields. */
export type AnyValue =
  | { stringValue: string }
  | { intValue: string }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { arrayValue: { values: AnyValue[] } };

/** One attribute (`KeyValue`). */
export interface KeyValue {
  key: string;
  value: AnyValue;
}

/** `Span.SpanKind`: 1 internal, 3 client. */
export const SPAN_KIND = { internal: 1, client: 3 } as const;

/** `Status.StatusCode`: 0 unset, 1 ok, 2 error. */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

/** One span (`opentelemetry.proto.trace.v1.Span`). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** Absent on a trace's root. */
  parentSpanId?: string;
  name: string;
  kind: number;
  /** Nanoseconds since the epoch, as a decimal string. */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  status: { code: number; message?: string };
}

/** The body of `POST /v1/traces`. */
export interface TraceRequest {
  resourceSpans: Array<{
    resource: { attributes: KeyValue[] };
    scopeSpans: Array<{ scope: { name: string; version: string }; spans: OtlpSpan[] }>;
  }>;
}

/** A plain attribute value: a string, a number (integers as `intValue`), a boolean, or a list of strings. */
export type Plain = string | number | boolean | string[];

/**
 * Attributes in OTLP's shape, in the order given, leaving out `undefined` values.
 * @param fields names (`gen_ai.usage.input_tokens`) and plain values
 * @returns the `KeyValue` list
 */
export function attributes(fields: ReadonlyArray<readonly [string, Plain | undefined]>): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [key, value] of fields) if (value !== undefined) out.push({ key, value: anyValue(value) });
  return out;
}

function anyValue(value: Plain): AnyValue {
  if (Array.isArray(value)) return { arrayValue: { values: value.map((v) => ({ stringValue: v })) } };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
}

/**
 * Epoch milliseconds as OTLP nanoseconds (a decimal string); a time that is not a finite number reads 0.
 * @param ms epoch ms
 * @returns nanoseconds since the epoch
 */
export function nanos(ms: number): string {
  if (!Number.isFinite(ms)) return '0';
  return (BigInt(Math.round(ms)) * 1_000_000n).toString();
}

/**
 * One request body holding `spans` under one resource and one scope (romp's).
 * @param spans the spans
 * @param resource the resource's attributes (`service.name`, `host.name`)
 * @param version romp's version, the scope's
 * @returns the request
 */
export function traceRequest(spans: OtlpSpan[], resource: KeyValue[], version: string): TraceRequest {
  return {
    resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ scope: { name: 'romp', version }, spans }] }],
  };
}
