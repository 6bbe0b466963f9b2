import { knownBlocks } from '../model/known-blocks.ts';
import type { Atom, Session } from '../model/types.ts';
import { addResponse, emptyTotals, type Response, type Totals } from '../usage/count-usage.ts';
import { PRICES, priceFor, type Price } from '../usage/prices.ts';
import { toolCalls } from '../views/tool-calls.ts';
import { spanIdOf, traceIdOf } from './otlp-ids.ts';
import { attributes, nanos, SPAN_KIND, STATUS_CODE, type OtlpSpan, type Plain } from './otlp-json.ts';

/** A subagent of the session, linked to the `Task` / `Agent` call that spawned it (`findSubagents`). */
export interface SpanSubagent {
  tool_use_id: string;
  session: Session;
}

/** What `sessionSpans` turns into spans. */
export interface SpanSource {
  session: Session;
  /** The session's API responses, each once: `countUsage` over its files and its subagents' files. */
  responses: readonly Response[];
  subagents: readonly SpanSubagent[];
  /** Prompts' and replies' text, tool input and error text on the spans (`--include-content`); default off. */
  includeContent?: boolean;
  /** Applied to every content text before it is put on a span (`--redact`). */
  redact?: (text: string) => string;
  prices?: Readonly<Record<string, Price>>;
}

/** Content attributes are cut to this many characters. */
const CONTENT_CHARS = 32_000;

interface Place {
  parent: string;
  start: number;
  end: number;
  stop_reason: string | undefined;
  atoms: Atom[];
}

/**
 * The spans of one session as one trace, by the OpenTelemetry GenAI semantic conventions (agent and
 * model spans, v1.37+): an `invoke_agent` root (`gen_ai.conversation.id` = rompUuid); under it a
 * `chat {model}` span (kind client) per API response, counted as `countUsage` counts (each
 * `message.id` + `requestId` once, dead branches and subagents included) with `gen_ai.usage.*`
 * (`input_tokens` includes the cache reads and writes, as the conventions say; the split is in
 * `gen_ai.usage.cache_read.input_tokens` / `cache_creation.input_tokens`, the 5 m / 1 h split and the
 * cost in `romp.*`); an `execute_tool {name}` span per tool call on the active path, status error when
 * its result was one; each subagent as an `invoke_agent` span under the `execute_tool` span of its
 * `Task` / `Agent` call, its own responses and tools under it. Ids: `traceIdOf(rompUuid)` and
 * `spanIdOf(rompUuid, kind, id)` (a response's `message.id` and `requestId`, a tool call's
 * `tool_use_id`), the same on every export. A chat span starts at the line before its response's first
 * line (when the request went out) and ends at its last line; no span ends before it starts, and every
 * parent spans its children. Content only with `includeContent`. Pure.
 * @param source the session, its responses and subagents, the content switch
 * @returns the spans, root first
 */
export function sessionSpans(source: SpanSource): OtlpSpan[] {
  const { session } = source;
  const rompUuid = session.rompUuid;
  const traceId = traceIdOf(rompUuid);
  const rootId = spanIdOf(rompUuid, 'session');
  const content = source.includeContent === true;
  const text = (value: string): string =>
    (source.redact ?? ((s: string) => s))(value.length > CONTENT_CHARS ? value.slice(0, CONTENT_CHARS) : value);
  const common: Array<[string, Plain | undefined]> = [
    ['gen_ai.provider.name', 'anthropic'],
    ['gen_ai.conversation.id', rompUuid],
  ];
  const spans: OtlpSpan[] = [];
  const children = new Map<string, OtlpSpan[]>();
  const add = (span: OtlpSpan): void => {
    spans.push(span);
    const parent = span.parentSpanId ?? '';
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [span]);
    else list.push(span);
  };
  const span = (
    spanId: string,
    parent: string,
    name: string,
    kind: number,
    start: number,
    end: number,
    fields: Array<[string, Plain | undefined]>,
  ): OtlpSpan => ({
    traceId,
    spanId,
    parentSpanId: parent,
    name,
    kind,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(Math.max(start, end)),
    attributes: attributes([...fields, ...common]),
    status: { code: STATUS_CODE.unset },
  });

  // where each response sits: the agent span over it, its lines, when it was sent and ended
  const places = new Map<string, Place>();
  const scopes: Array<{ session: Session; spanId: string; call?: string }> = [{ session, spanId: rootId }];
  for (const sub of source.subagents)
    scopes.push({ session: sub.session, spanId: spanIdOf(rompUuid, 'agent', sub.tool_use_id), call: sub.tool_use_id });
  for (const scope of scopes) {
    let previous: Atom | undefined;
    for (const turn of scope.session.turns) {
      for (const atom of turn.atoms) {
        const id = atom.type === 'assistant' ? atom.message?.id : undefined;
        if (id !== undefined) {
          const key = placeKey(id, atom.request_id);
          const place = places.get(key);
          if (place === undefined)
            places.set(key, {
              parent: scope.spanId,
              start: previous?.t ?? atom.t,
              end: atom.t,
              stop_reason: atom.message?.stop_reason ?? undefined,
              atoms: [atom],
            });
          else {
            place.end = Math.max(place.end, atom.t);
            place.stop_reason = atom.message?.stop_reason ?? place.stop_reason;
            place.atoms.push(atom);
          }
        }
        previous = atom;
      }
    }
    for (const call of toolCalls(scope.session)) {
      if (call.useUuid === null || call.t === null) continue;
      const failed = call.is_error;
      const s = span(
        spanIdOf(rompUuid, 'tool', call.tool_use_id),
        scope.spanId,
        `execute_tool ${call.name}`,
        SPAN_KIND.internal,
        call.t,
        call.end ?? call.t,
        [
          ['gen_ai.operation.name', 'execute_tool'],
          ['gen_ai.tool.name', call.name],
          ['gen_ai.tool.call.id', call.tool_use_id],
          ['gen_ai.tool.type', 'function'],
          ['error.type', failed ? 'tool_error' : undefined],
          ['gen_ai.tool.call.arguments', content ? text(JSON.stringify(call.input ?? null)) : undefined],
        ],
      );
      if (failed)
        s.status =
          content && call.error !== null
            ? { code: STATUS_CODE.error, message: text(call.error) }
            : { code: STATUS_CODE.error };
      add(s);
    }
  }

  const prices = source.prices ?? PRICES;
  for (const r of source.responses) {
    const place = places.get(placeKey(r.messageId, r.requestId));
    const totals = addResponseTotals(r, prices);
    const start = place?.start ?? r.t;
    add(
      span(
        spanIdOf(rompUuid, 'chat', r.messageId, r.requestId ?? r.sessionId),
        place?.parent ?? rootId,
        `chat ${r.model}`,
        SPAN_KIND.client,
        start,
        place?.end ?? start,
        [
          ['gen_ai.operation.name', 'chat'],
          ['gen_ai.request.model', r.model],
          ['gen_ai.response.model', r.model],
          ['gen_ai.response.id', r.messageId],
          ['gen_ai.response.finish_reasons', place?.stop_reason === undefined ? undefined : [place.stop_reason]],
          [
            'gen_ai.usage.input_tokens',
            totals.input_tokens + totals.cache_creation_input_tokens + totals.cache_read_input_tokens,
          ],
          ['gen_ai.usage.output_tokens', totals.output_tokens],
          ['gen_ai.usage.cache_creation.input_tokens', totals.cache_creation_input_tokens],
          ['gen_ai.usage.cache_read.input_tokens', totals.cache_read_input_tokens],
          ['romp.usage.uncached_input_tokens', totals.input_tokens],
          ['romp.usage.cache_creation_5m', totals.cache_creation_5m],
          ['romp.usage.cache_creation_1h', totals.cache_creation_1h],
          ['romp.cost_usd', totals.unpriced > 0 ? undefined : totals.cost_usd],
          ['romp.lower_bound', r.lowerBound ? true : undefined],
          ['romp.request_id', r.requestId],
          ['romp.on_path', place === undefined ? false : undefined],
          [
            'gen_ai.output.messages',
            content && place !== undefined
              ? text(JSON.stringify([{ role: 'assistant', parts: place.atoms.flatMap(parts) }]))
              : undefined,
          ],
        ],
      ),
    );
  }

  // agent spans last, each over its children; a subagent's under its Task call, that call over it
  const wrap = (
    spanId: string,
    parent: string | undefined,
    name: string,
    scope: Session,
    fields: Array<[string, Plain | undefined]>,
  ): OtlpSpan => {
    let start = Infinity;
    let end = -Infinity;
    const take = (t: number): void => {
      if (!Number.isFinite(t)) return;
      start = Math.min(start, t);
      end = Math.max(end, t);
    };
    for (const c of children.get(spanId) ?? []) {
      take(Number(BigInt(c.startTimeUnixNano) / 1_000_000n));
      take(Number(BigInt(c.endTimeUnixNano) / 1_000_000n));
    }
    for (const turn of scope.turns) {
      take(turn.t);
      take(turn.end);
    }
    if (start > end) start = end = 0;
    const s = span(spanId, parent ?? '', `invoke_agent ${name}`, SPAN_KIND.internal, start, end, [
      ['gen_ai.operation.name', 'invoke_agent'],
      ['gen_ai.agent.name', name],
      ...fields,
    ]);
    if (parent === undefined) delete s.parentSpanId;
    return s;
  };
  for (const scope of scopes.slice(1)) {
    const callId = spanIdOf(rompUuid, 'tool', scope.call ?? '');
    const parent = spans.find((s) => s.spanId === callId);
    const agent = wrap(scope.spanId, parent?.spanId ?? rootId, 'subagent', scope.session, [
      ['gen_ai.agent.id', scope.session.files[0]?.fsid],
    ]);
    add(agent);
    if (parent !== undefined) stretch(parent, agent);
  }
  const root = wrap(rootId, undefined, 'Claude Code', session, [
    ['gen_ai.agent.id', rompUuid],
    ['romp.turns', session.turns.length],
    ['romp.session.name', content && session.name !== '' ? text(session.name) : undefined],
  ]);
  for (const s of spans) if (s.parentSpanId === '') delete s.parentSpanId;
  return [root, ...spans];
}

/** The key a response is found by among the atoms: its `message.id` and `requestId`. */
function placeKey(messageId: string, requestId: string | undefined): string {
  return `${messageId}\u0000${requestId ?? ''}`;
}

/** Widens a span to hold another (a Task call over the subagent it ran). */
function stretch(outer: OtlpSpan, inner: OtlpSpan): void {
  if (BigInt(inner.startTimeUnixNano) < BigInt(outer.startTimeUnixNano))
    outer.startTimeUnixNano = inner.startTimeUnixNano;
  if (BigInt(inner.endTimeUnixNano) > BigInt(outer.endTimeUnixNano)) outer.endTimeUnixNano = inner.endTimeUnixNano;
}

function addResponseTotals(r: Response, prices: Readonly<Record<string, Price>>): Totals {
  const totals = emptyTotals();
  addResponse(totals, r, priceFor(r.model, prices));
  return totals;
}

/** A response line's blocks as GenAI message parts: text, and tool calls by id and name. */
function parts(atom: Atom): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const block of knownBlocks(atom.message?.content)) {
    if (block.type === 'text') out.push({ type: 'text', content: block.text });
    else if (block.type === 'tool_use')
      out.push({ type: 'tool_call', id: block.id, name: block.name, arguments: block.input });
  }
  return out;
}
