/**
 * `romp export --format otlp`: a hand-made session with a failed tool and a subagent, sent to a test
 * collector on 127.0.0.1 (which answers the first request 503), and every corpus session: the OTLP/JSON
 * shape, hex ids of the right length, nanosecond times, one tree per session, the same ids again.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import type { OtlpSpan, TraceRequest } from '../../src/otlp/otlp-json.ts';
import { batches, postTraces } from '../../src/otlp/post-traces.ts';
import { countUsage } from '../../src/usage/count-usage.ts';
import { sessionSubagents } from '../../src/discover/list-claude-sessions.ts';
import { corpusPresent, corpusTranscripts } from '../helpers/corpus.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const T = Date.parse('2026-03-01T10:00:00.000Z');
const at = (s: number): string => new Date(T + s * 1000).toISOString();
const line = (o: Record<string, unknown>): string =>
  `${JSON.stringify({ sessionId: 's1', version: '2.1.150', cwd: '/w', ...o })}\n`;

/** A projects folder with one session: a failed Bash call, a Task call whose subagent answered, a reply. */
function fixture(): { projects: string; file: string } {
  const projects = tempDir('romp-otlp-');
  const dir = join(projects, '-w');
  mkdirSync(join(dir, 's1', 'subagents'), { recursive: true });
  const usage = (input: number, output: number, read = 0, write = 0): Record<string, number> => ({
    input_tokens: input,
    output_tokens: output,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: write,
  });
  const file = join(dir, 's1.jsonl');
  writeFileSync(
    file,
    line({
      parentUuid: null,
      type: 'user',
      uuid: 'u1',
      timestamp: at(0),
      promptSource: 'typed',
      message: { role: 'user', content: 'fix it' },
    }) +
      line({
        parentUuid: 'u1',
        type: 'assistant',
        uuid: 'a1',
        requestId: 'req_1',
        timestamp: at(1),
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }],
          stop_reason: 'tool_use',
          usage: usage(10, 5, 100, 20),
        },
      }) +
      line({
        parentUuid: 'a1',
        type: 'user',
        uuid: 'r1',
        timestamp: at(2),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'boom' }],
        },
      }) +
      line({
        parentUuid: 'r1',
        type: 'assistant',
        uuid: 'a2',
        requestId: 'req_2',
        timestamp: at(3),
        message: {
          id: 'msg_2',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 't2', name: 'Task', input: { prompt: 'look', subagent_type: 'Explore' } }],
          stop_reason: 'tool_use',
          usage: usage(7, 4),
        },
      }) +
      line({
        parentUuid: 'a2',
        type: 'user',
        uuid: 'r2',
        timestamp: at(10),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'found it' }] },
      }) +
      line({
        parentUuid: 'r2',
        type: 'assistant',
        uuid: 'a3',
        requestId: 'req_3',
        timestamp: at(11),
        message: {
          id: 'msg_3',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'Done.' }],
          stop_reason: 'end_turn',
          usage: usage(2, 1),
        },
      }),
  );
  writeFileSync(
    join(dir, 's1', 'subagents', 'agent-x.jsonl'),
    line({
      parentUuid: null,
      type: 'user',
      uuid: 'su1',
      isSidechain: true,
      timestamp: at(4),
      message: { role: 'user', content: 'look' },
    }) +
      line({
        parentUuid: 'su1',
        type: 'assistant',
        uuid: 'sa1',
        isSidechain: true,
        requestId: 'req_4',
        timestamp: at(6),
        message: {
          id: 'msg_4',
          role: 'assistant',
          model: 'claude-haiku-4-5',
          content: [{ type: 'text', text: 'here' }],
          stop_reason: 'end_turn',
          usage: usage(3, 2),
        },
      }),
  );
  writeFileSync(join(dir, 's1', 'subagents', 'agent-x.meta.json'), JSON.stringify({ toolUseId: 't2' }));
  return { projects, file };
}

/** A collector on 127.0.0.1 that answers its first request 503 (a retry must follow) and keeps the bodies of the
 * others. */
async function collector(): Promise<{
  url: string;
  bodies: TraceRequest[];
  requests: () => number;
  close: () => Promise<void>;
}> {
  const bodies: TraceRequest[] = [];
  let requests = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      requests++;
      assert.equal(req.url, '/v1/traces');
      assert.equal(req.headers['content-type'], 'application/json');
      if (requests === 1) {
        res.writeHead(503, { 'retry-after': '0' }).end();
        return;
      }
      bodies.push(JSON.parse(text) as TraceRequest);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"partialSuccess":{}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

/** Checks one request against the OTLP/JSON shape and returns its spans. */
function validSpans(request: TraceRequest): OtlpSpan[] {
  assert.ok(Array.isArray(request.resourceSpans) && request.resourceSpans.length > 0);
  const spans: OtlpSpan[] = [];
  for (const rs of request.resourceSpans) {
    assert.ok(rs.resource.attributes.some((a) => a.key === 'service.name' && 'stringValue' in a.value));
    for (const ss of rs.scopeSpans) {
      assert.equal(ss.scope.name, 'romp');
      for (const s of ss.spans) {
        assert.match(s.traceId, HEX32);
        assert.match(s.spanId, HEX16);
        if (s.parentSpanId !== undefined) assert.match(s.parentSpanId, HEX16);
        assert.match(s.startTimeUnixNano, /^\d+$/);
        assert.match(s.endTimeUnixNano, /^\d+$/);
        assert.ok(BigInt(s.endTimeUnixNano) >= BigInt(s.startTimeUnixNano), `${s.name} ends before it starts`);
        assert.ok([1, 3].includes(s.kind));
        assert.ok([0, 2].includes(s.status.code));
        for (const a of s.attributes) {
          const kinds = Object.keys(a.value);
          assert.equal(kinds.length, 1, a.key);
          assert.ok(
            ['stringValue', 'intValue', 'doubleValue', 'boolValue', 'arrayValue'].includes(kinds[0] as string),
            a.key,
          );
          if ('intValue' in a.value) assert.match(a.value.intValue, /^-?\d+$/);
        }
        spans.push(s);
      }
    }
  }
  return spans;
}

/** Checks that the spans are one tree per trace and returns the roots. */
function oneTreePerTrace(spans: OtlpSpan[]): OtlpSpan[] {
  const byId = new Map(spans.map((s) => [`${s.traceId}/${s.spanId}`, s]));
  assert.equal(byId.size, spans.length, 'span ids are unique within their trace');
  const roots = spans.filter((s) => s.parentSpanId === undefined);
  assert.equal(roots.length, new Set(spans.map((s) => s.traceId)).size, 'one root per trace');
  for (const s of spans) {
    let at: OtlpSpan | undefined = s;
    for (let depth = 0; at?.parentSpanId !== undefined; depth++) {
      assert.ok(depth < spans.length, 'a cycle');
      at = byId.get(`${s.traceId}/${at.parentSpanId}`);
      assert.ok(at !== undefined, `${s.name}: its parent is not in its trace`);
    }
  }
  return roots;
}

const attr = (s: OtlpSpan, key: string): unknown => {
  const v = s.attributes.find((a) => a.key === key)?.value as Record<string, unknown> | undefined;
  return v === undefined ? undefined : 'intValue' in v ? Number(v['intValue']) : Object.values(v)[0];
};

test('otlp: the hand-made session as one GenAI trace, sent through a retry', async () => {
  const { projects } = fixture();
  const receiver = await collector();
  try {
    const run = await runCli([
      'export',
      '--format',
      'otlp',
      '--projects',
      projects,
      '--endpoint',
      receiver.url,
      '--json',
    ]);
    assert.equal(run.code, 0, run.err);
    assert.equal(receiver.requests(), 2, 'the 503 was tried again');
    const report = JSON.parse(run.out);
    assert.equal(report.retries, 1);
    assert.equal(report.spans, 8);
    const spans = receiver.bodies.flatMap(validSpans);
    const [root] = oneTreePerTrace(spans);
    assert.equal(root?.name, 'invoke_agent Claude Code');
    assert.equal(attr(root as OtlpSpan, 'gen_ai.conversation.id'), 's1');
    assert.equal(root?.startTimeUnixNano, `${T}000000`);
    assert.equal(root?.endTimeUnixNano, `${T + 11_000}000000`);
    const named = (name: string): OtlpSpan => spans.find((s) => s.name === name) as OtlpSpan;
    const bash = named('execute_tool Bash');
    assert.equal(bash.status.code, 2);
    assert.equal(bash.status.message, undefined, 'no content without --include-content');
    assert.equal(attr(bash, 'error.type'), 'tool_error');
    assert.equal(bash.startTimeUnixNano, `${T + 1000}000000`);
    assert.equal(bash.endTimeUnixNano, `${T + 2000}000000`);
    const task = named('execute_tool Task');
    assert.equal(task.status.code, 0);
    const agent = named('invoke_agent subagent');
    assert.equal(agent.parentSpanId, task.spanId, 'the subagent runs under its Task call');
    const chats = spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'chat');
    assert.deepEqual(chats.map((c) => attr(c, 'gen_ai.response.id')).sort(), ['msg_1', 'msg_2', 'msg_3', 'msg_4']);
    const first = chats.find((c) => attr(c, 'gen_ai.response.id') === 'msg_1') as OtlpSpan;
    assert.equal(attr(first, 'gen_ai.usage.input_tokens'), 130, 'input includes cache reads and writes');
    assert.equal(attr(first, 'gen_ai.usage.output_tokens'), 5);
    assert.equal(attr(first, 'gen_ai.usage.cache_read.input_tokens'), 100);
    assert.equal(attr(first, 'gen_ai.usage.cache_creation.input_tokens'), 20);
    assert.equal(attr(first, 'gen_ai.request.model'), 'claude-sonnet-4-5');
    assert.deepEqual(first.startTimeUnixNano, `${T}000000`, 'sent after the prompt');
    assert.equal(first.parentSpanId, root?.spanId);
    const sub = chats.find((c) => attr(c, 'gen_ai.response.id') === 'msg_4') as OtlpSpan;
    assert.equal(sub.parentSpanId, agent.spanId);
    assert.ok(
      !spans.some((s) =>
        s.attributes.some((a) => a.key === 'gen_ai.tool.call.arguments' || a.key === 'gen_ai.output.messages'),
      ),
    );
  } finally {
    await receiver.close();
  }
});

test('otlp --include-content puts tool input, errors and replies on the spans; ids stay the same', async () => {
  const { projects, file } = fixture();
  const out = join(tempDir('romp-otlp-out-'), 'traces.jsonl');
  assert.equal((await runCli(['export', '--format', 'otlp', '--out', out, '--projects', projects])).code, 0);
  const plain = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TraceRequest)
    .flatMap(validSpans);
  const run = await runCli(['export', '--format', 'otlp', file, '--include-content']);
  const spans = run.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TraceRequest)
    .flatMap(validSpans);
  assert.deepEqual(spans.map((s) => s.spanId).sort(), plain.map((s) => s.spanId).sort());
  const bash = spans.find((s) => s.name === 'execute_tool Bash') as OtlpSpan;
  assert.equal(attr(bash, 'gen_ai.tool.call.arguments'), '{"command":"ls"}');
  assert.equal(bash.status.message, 'boom');
  const last = spans.find((s) => attr(s, 'gen_ai.response.id') === 'msg_3') as OtlpSpan;
  assert.deepEqual(JSON.parse(attr(last, 'gen_ai.output.messages') as string), [
    { role: 'assistant', parts: [{ type: 'text', content: 'Done.' }] },
  ]);
  // --redact: the tool results' text is gone from the spans too, and the report counts it
  const redacted = await runCli([
    'export',
    '--format',
    'otlp',
    file,
    '--include-content',
    '--redact',
    '--out',
    out,
    '--json',
  ]);
  assert.deepEqual(JSON.parse(redacted.out).redactions, { 'romp/tool-result': 2 });
  const masked = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TraceRequest)
    .flatMap(validSpans);
  assert.equal(masked.find((s) => s.name === 'execute_tool Bash')?.status.message, '[redacted: 4 chars]');
});

test('otlp to a collector that refuses: one romp: line, exit 2, no stack trace', async () => {
  const { projects } = fixture();
  const server = createServer((_req, res) => res.writeHead(400).end('bad payload'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const run = await runCli([
      'export',
      '--format',
      'otlp',
      '--projects',
      projects,
      '--endpoint',
      `http://127.0.0.1:${port}`,
    ]);
    assert.equal(run.code, 2);
    assert.equal(run.err, `romp: the traces were not sent: http://127.0.0.1:${port}/v1/traces: HTTP 400 bad payload\n`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('postTraces sends bounded batches and gives up after its tries', async () => {
  const spans = Array.from({ length: 7 }, (_, i): OtlpSpan => ({
    traceId: 'a'.repeat(32),
    spanId: i.toString(16).padStart(16, '0'),
    name: `s${i}`,
    kind: 1,
    startTimeUnixNano: '1',
    endTimeUnixNano: '2',
    attributes: [],
    status: { code: 0 },
  }));
  assert.deepEqual(
    batches(spans, 3, 1e9).map((b) => b.length),
    [3, 3, 1],
  );
  const size = Buffer.byteLength(JSON.stringify(spans[0])) + 1;
  assert.deepEqual(
    batches(spans, 100, 2 * size).map((b) => b.length),
    [2, 2, 2, 1],
    'two spans fit in the bytes',
  );
  assert.deepEqual(
    batches(spans, 100, 1).map((b) => b.length),
    [1, 1, 1, 1, 1, 1, 1],
    'a span larger than the bound goes alone',
  );
  const receiver = await collector();
  try {
    const sent = await postTraces(spans, {
      endpoint: `${receiver.url}/v1/traces`,
      resource: [],
      version: '0',
      batchSpans: 3,
      sleep: async () => {},
    });
    assert.deepEqual(
      { requests: sent.requests, spans: sent.spans, retries: sent.retries },
      { requests: 3, spans: 7, retries: 1 },
    );
    assert.deepEqual(
      receiver.bodies.map((b) => b.resourceSpans[0]?.scopeSpans[0]?.spans.length),
      [3, 3, 1],
    );
  } finally {
    await receiver.close();
  }
  const waits: number[] = [];
  await assert.rejects(
    postTraces(spans, {
      endpoint: 'http://127.0.0.1:9',
      resource: [],
      version: '0',
      tries: 3,
      sleep: async (ms) => void waits.push(ms),
    }),
    /after 3 tries/,
  );
  assert.deepEqual(waits, [500, 1000]);
});

test(
  'otlp over the corpus: one valid tree per session, chat tokens equal countUsage, same ids on re-export',
  { skip: corpusPresent ? false : 'the corpus is absent' },
  async () => {
    const files = corpusTranscripts().filter((f) => !f.includes('/subagents/') && !/\/agent-[^/]*$/.test(f));
    const first = await runCli(['export', '--format', 'otlp', ...files]);
    assert.equal(first.code, 0, first.err);
    const requests = first.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as TraceRequest);
    assert.equal(requests.length, files.length, 'one request per session');
    const spans = requests.flatMap(validSpans);
    for (const [i, request] of requests.entries()) {
      const own = request.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
      assert.equal(new Set(own.map((s) => s.traceId)).size, 1, `${files[i]}: one trace`);
      assert.equal(oneTreePerTrace(own).length, 1);
    }
    // a resumed session's files name the same session: their spans share ids, and a backend keeps one of
    // each, which is still one tree per session
    const kept = new Map(spans.map((s) => [`${s.traceId}/${s.spanId}`, s]));
    assert.ok(kept.size < spans.length, 'the corpus holds files of one session');
    oneTreePerTrace([...kept.values()]);
    const chats = spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'chat');
    const total = chats.reduce((sum, s) => sum + (attr(s, 'gen_ai.usage.output_tokens') as number), 0);
    const counted = new Map<string, number>();
    for (const file of files)
      counted.set(file, (await countUsage([file, ...(await sessionSubagents(file))])).total.output_tokens);
    assert.equal(
      total,
      [...counted.values()].reduce((a, b) => a + b, 0),
    );
    const again = await runCli(['export', '--format', 'otlp', ...files]);
    assert.deepEqual(
      again.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as TraceRequest)
        .flatMap(validSpans)
        .map((s) => `${s.traceId}/${s.spanId}`),
      spans.map((s) => `${s.traceId}/${s.spanId}`),
    );
  },
);

test('otlp --out into a folder that does not exist yet makes the folder, as the lake does', async () => {
  const { projects } = fixture();
  const out = join(tempDir('romp-otlp-new-'), 'not', 'yet', 'traces.jsonl');
  const run = await runCli(['export', '--format', 'otlp', '--out', out, '--projects', projects]);
  assert.equal(run.err.startsWith(`${out}: 1 session, `), true, run.err);
  assert.equal(run.code, 0);
  const requests = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(requests.length, 1);
  assert.equal(validSpans(JSON.parse(requests[0] ?? '') as TraceRequest).length > 0, true);
});
