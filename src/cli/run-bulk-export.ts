import { rename, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { defaultProjectsDir } from '../discover/list-claude-sessions.ts';
import { discoverTranscripts } from '../discover/discover-transcripts.ts';
import { readExportSession, type ExportSession } from '../export/read-export-session.ts';
import { attributes, traceRequest, type KeyValue } from '../otlp/otlp-json.ts';
import { postTraces } from '../otlp/post-traces.ts';
import { sessionSpans } from '../otlp/session-spans.ts';
import { redactSession, type RedactionCounts } from '../redact/redact-session.ts';
import { secretlintFinder } from '../redact/secretlint-finder.ts';
import { keyed } from '../model/keyed.ts';
import { checkFiles, reportSkipped, UserError, type CliIO } from './cli-io.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';

/** Options of `romp export --format otlp|parquet|ndjson`. */
export interface BulkExportOptions extends TargetOptions {
  format: 'otlp' | 'parquet' | 'ndjson';
  /** OTLP: the file to write (NDJSON, one request per session); parquet/ndjson: the lake's folder. */
  out?: string;
  /** OTLP: the collector (`http://host:4318`), spans are POSTed to its `/v1/traces`. */
  endpoint?: string;
  includeContent?: boolean;
  redact?: boolean;
  /** With `--redact`: keep tool results' text (secrets in it still masked). */
  keepToolResults?: boolean;
  /** The machine's name in the lake and in the trace resource (default: the host name). */
  machine?: string;
  json?: boolean;
}

/** romp's version, the OTLP scope's. */
const VERSION = '0.1.0';

/**
 * The session files a bulk export reads: those named (paths, ids, `--latest`, `--project`: every
 * session of the project), else every session of the projects folder (`<project>/<id>.jsonl`; subagent
 * transcripts come with their session).
 * @param args positional arguments
 * @param options target options
 * @param io where skipped entries are named
 * @returns the files and their cleanup
 */
export async function exportFiles(args: string[], options: TargetOptions, io: CliIO): Promise<{ files: string[]; cleanup: () => Promise<void> }> {
  if (args.length > 0 || options.latest === true || options.project !== undefined) {
    const targets = await resolveTargets(args, options, 'many', io);
    await checkFiles(targets.files);
    return targets;
  }
  const root = options.projects ?? defaultProjectsDir();
  const { files, skipped } = await discoverTranscripts(root);
  for (const s of skipped) reportSkipped(s, io);
  const main = files.filter((f) => f.parts.length === 1 && !(f.parts[0] as string).startsWith('agent-')).map((f) => f.path);
  if (main.length === 0) throw new UserError(`no sessions under ${root}`);
  return { files: main.sort(), cleanup: async () => {} };
}

/**
 * Reads one session for export and, with `--redact`, masks it (`redactSession`: tool results dropped
 * unless `--keep-tool-results`, dotenv reads, romp's structural rules, secretlint's recommended preset).
 * @param file the session's file
 * @param options the redaction switches
 * @param counts redactions per rule, added to
 * @returns the session, redacted when asked
 */
export async function readForExport(file: string, options: Pick<BulkExportOptions, 'redact' | 'keepToolResults'>, counts: RedactionCounts): Promise<ExportSession> {
  const read = await readExportSession(file);
  if (options.redact === true) await redactSession([read.session, ...read.subagents.map((s) => s.session)], { keepToolResults: options.keepToolResults === true, finder: secretlintFinder() }, counts);
  return read;
}

/**
 * `romp export --format otlp [SESSION...] [--endpoint URL | --out FILE] [--include-content] [--redact]`:
 * every session named (default: the whole projects folder) as one OTLP trace (`sessionSpans`), POSTed
 * to the collector (`postTraces`: bounded batches, retries) or written as OTLP/JSON lines, one
 * request per session (to `--out` through a temporary file and a rename, else standard output). The
 * report (sessions, spans, requests, bytes, redactions per rule) goes to stderr, or to stdout with
 * `--json` when the traces do not.
 * @param args positional arguments
 * @param options see `BulkExportOptions`
 * @param io where to write
 * @returns the exit code
 */
export async function runOtlpExport(args: string[], options: BulkExportOptions, io: CliIO): Promise<number> {
  if (options.endpoint !== undefined && options.out !== undefined) throw new UserError('give --endpoint or --out, not both');
  if (options.endpoint !== undefined && !/^https?:\/\//.test(options.endpoint)) throw new UserError(`--endpoint ${options.endpoint}: give an http:// or https:// URL`);
  const { files, cleanup } = await exportFiles(args, options, io);
  const redactions = keyed<number>();
  const resource: KeyValue[] = attributes([['service.name', 'claude-code'], ['host.name', options.machine ?? hostname()], ['telemetry.sdk.name', 'romp']]);
  const report = { format: 'otlp', sessions: 0, spans: 0, requests: 0, bytes: 0, retries: 0, rejected: 0, redactions };
  const lines: string[] = [];
  try {
    for (const file of files) {
      const read = await readForExport(file, options, redactions);
      const spans = sessionSpans({ session: read.session, responses: read.responses, subagents: read.subagents, includeContent: options.includeContent === true });
      report.sessions++;
      report.spans += spans.length;
      if (options.endpoint !== undefined) {
        const sent = await postTraces(spans, { endpoint: options.endpoint, resource, version: VERSION });
        report.requests += sent.requests;
        report.bytes += sent.bytes;
        report.retries += sent.retries;
        report.rejected += sent.rejected;
      } else {
        const line = `${JSON.stringify(traceRequest(spans, resource, VERSION))}\n`;
        report.bytes += Buffer.byteLength(line);
        lines.push(line);
      }
    }
  } finally {
    await cleanup();
  }
  if (options.endpoint === undefined && options.out === undefined) {
    io.stdout.write(lines.join(''));
  } else if (options.out !== undefined) {
    const partial = `${options.out}.${process.pid}.partial`;
    await writeFile(partial, lines.join(''));
    await rename(partial, options.out);
  }
  const toStdout = options.json === true && (options.endpoint !== undefined || options.out !== undefined);
  if (toStdout) io.stdout.write(`${JSON.stringify(report)}\n`);
  else io.stderr.write(`${options.endpoint ?? options.out ?? 'stdout'}: ${report.sessions} sessions, ${report.spans} spans${options.endpoint === undefined ? '' : `, ${report.requests} requests`}${redactionLine(redactions)}\n`);
  return 0;
}

/**
 * The redactions as `; redacted: rule N, rule M` (empty without any).
 * @param counts redactions per rule
 * @returns the text
 */
export function redactionLine(counts: RedactionCounts): string {
  const entries = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '' : `; redacted: ${entries.map(([rule, n]) => `${rule} ${n}`).join(', ')}`;
}

export async function runLakeExport(args: string[], options: BulkExportOptions, io: CliIO): Promise<number> {
  void args; void options; void io;
  return 2;
}
