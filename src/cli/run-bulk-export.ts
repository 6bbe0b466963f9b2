import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isKnownTime } from '../model/time.ts';
import { hostname } from 'node:os';
import { checkProjectsFolder } from './check-projects-folder.ts';
import { defaultProjectsDir } from '../discover/list-claude-sessions.ts';
import { discoverTranscripts } from '../discover/discover-transcripts.ts';
import { readExportSession, type ExportSession, type ExportUnit } from '../export/read-export-session.ts';
import { attributes, traceRequest, type KeyValue } from '../otlp/otlp-json.ts';
import { postTraces } from '../otlp/post-traces.ts';
import { sessionSpans } from '../otlp/session-spans.ts';
import { redactSession, type RedactionCounts } from '../redact/redact-session.ts';
import { secretlintFinder } from '../redact/secretlint-finder.ts';
import { keyed } from '../model/keyed.ts';
import { sessionSubagents } from '../discover/list-claude-sessions.ts';
import { exportRows } from '../lake/export-rows.ts';
import {
  fileIdentity,
  LAKE_VERSION,
  otherVersionManifests,
  readManifest,
  writeManifest,
  type ManifestFile,
} from '../lake/export-manifest.ts';
import { ENTITIES, type Entity } from '../lake/lake-columns.ts';
import { writePart } from '../lake/write-part.ts';
import type { Cell } from '../rows/row-types.ts';
import { checkFiles, reportSkipped, UserError, type CliIO } from './cli-io.ts';
import { dayOption } from './day-option.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';
import { plural } from '../text/format-count.ts';

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
  /** parquet/ndjson: only sessions whose files changed on or after this day (`YYYYMMDD`, UTC). */
  since?: string;
  json?: boolean;
}

/** romp's version, the OTLP scope's. */
const VERSION = '0.1.0';

/**
 * The export units of a bulk export: the sessions named (paths, ids, `--latest`, `--project`: every
 * session of the project), else every session of the projects folder (`<project>/<id>.jsonl`), each
 * with its subagent transcripts (`sessionSubagents`; a transcript two sessions claim, as a resume and
 * its original do, goes with the first only); with the projects folder, every other transcript
 * (an orphan subagent file, a workflow journal) is a unit of its own, so every response `romp usage`
 * counts is exported once.
 * @param args positional arguments
 * @param options target options
 * @param io where skipped entries are named
 * @returns the units and their cleanup
 */
export async function exportUnits(
  args: string[],
  options: TargetOptions,
  io: CliIO,
): Promise<{ units: ExportUnit[]; cleanup: () => Promise<void> }> {
  let files: string[];
  let others: string[] = [];
  let cleanup = async (): Promise<void> => {};
  if (args.length > 0 || options.latest === true || options.project !== undefined) {
    const targets = await resolveTargets(args, options, 'many', io);
    await checkFiles(targets.files);
    files = targets.files;
    cleanup = targets.cleanup;
  } else {
    const root = options.projects ?? defaultProjectsDir();
    await checkProjectsFolder(root);
    const found = await discoverTranscripts(root);
    for (const s of found.skipped) reportSkipped(s, io);
    const all = found.files.map((f) => f.path);
    files = found.files
      .filter((f) => f.parts.length === 1 && !(f.parts[0] as string).startsWith('agent-'))
      .map((f) => f.path)
      .sort();
    if (all.length === 0) throw new UserError(`no sessions under ${root}`);
    const mains = new Set(files);
    others = all.filter((f) => !mains.has(f)).sort();
  }
  const claimed = new Set<string>(files);
  const units: ExportUnit[] = [];
  for (const file of files) {
    const subagents = (await sessionSubagents(file)).filter((s) => !claimed.has(s));
    for (const s of subagents) claimed.add(s);
    units.push({ file, subagents });
  }
  for (const file of others) if (!claimed.has(file)) units.push({ file, subagents: [] });
  return { units, cleanup };
}

/**
 * Reads one session for export and, with `--redact`, masks it (`redactSession`: tool results dropped
 * unless `--keep-tool-results`, dotenv reads, romp's structural rules, secretlint's recommended preset).
 * @param unit the session's file and its subagent transcripts
 * @param options the redaction switches
 * @param counts redactions per rule, added to
 * @returns the session, redacted when asked
 */
export async function readForExport(
  unit: ExportUnit,
  options: Pick<BulkExportOptions, 'redact' | 'keepToolResults'>,
  counts: RedactionCounts,
): Promise<ExportSession> {
  const read = await readExportSession(unit);
  if (options.redact === true)
    await redactSession(
      [read.session, ...read.subagents.map((s) => s.session)],
      { keepToolResults: options.keepToolResults === true, finder: secretlintFinder() },
      counts,
    );
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
  if (options.endpoint !== undefined && options.out !== undefined)
    throw new UserError('give --endpoint or --out, not both');
  if (options.since !== undefined) throw new UserError('--since is for --format parquet or ndjson');
  if (options.endpoint !== undefined && !/^https?:\/\//.test(options.endpoint))
    throw new UserError(`--endpoint ${options.endpoint}: give an http:// or https:// URL`);
  const { units, cleanup } = await exportUnits(args, options, io);
  const redactions = keyed<number>();
  const resource: KeyValue[] = attributes([
    ['service.name', 'claude-code'],
    ['host.name', options.machine ?? hostname()],
    ['telemetry.sdk.name', 'romp'],
  ]);
  const report = { format: 'otlp', sessions: 0, spans: 0, requests: 0, bytes: 0, retries: 0, rejected: 0, redactions };
  const lines: string[] = [];
  try {
    for (const unit of units) {
      const read = await readForExport(unit, options, redactions);
      const spans = sessionSpans({
        session: read.session,
        responses: read.responses,
        subagents: read.subagents,
        includeContent: options.includeContent === true,
      });
      report.sessions++;
      report.spans += spans.length;
      if (options.endpoint !== undefined) {
        // a collector that refuses or cannot be reached is the user's to fix: one line, exit 2
        const sent = await postTraces(spans, { endpoint: options.endpoint, resource, version: VERSION }).catch(
          (error: Error) => {
            throw new UserError(`the traces were not sent: ${error.message}`);
          },
        );
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
    // as the lake's `--out` folder is made when missing, so is the folder of the traces file
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(partial, lines.join(''));
    await rename(partial, options.out);
  }
  const toStdout = options.json === true && (options.endpoint !== undefined || options.out !== undefined);
  if (toStdout) io.stdout.write(`${JSON.stringify(report)}\n`);
  else
    io.stderr.write(
      `${options.endpoint ?? options.out ?? 'stdout'}: ${plural(report.sessions, 'session')}, ${plural(report.spans, 'span')}${options.endpoint === undefined ? '' : `, ${plural(report.requests, 'request')}`}${redactionLine(redactions)}\n`,
    );
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

/** Sessions whose rows are held before they are written as parts (bounds memory; fewer, larger parts). */
const SESSIONS_PER_FLUSH = 500;

/**
 * `romp export --format parquet|ndjson --out DIR [SESSION...] [--machine NAME] [--since DAY] [--redact]`:
 * every session named (default: the whole projects folder) as rows of the index's entities
 * (`exportRows`), written as Hive-style parts `DIR/<entity>/machine=<name>/date=<day>/part-<hash>`
 * (`writePart`; the day is the session's first, UTC). Incremental: the machine's manifest
 * (`DIR/_romp/manifest-<name>.json`) holds each source file's identity and the bytes exported; a
 * session whose files (its own and its subagents') are all unchanged is skipped, one that is new or
 * grew is exported whole (its rows keep their keys, so a reader's de-dup by `key` keeps one). The
 * manifest is written after each batch's parts, so a killed run redoes at most one batch, into
 * identical or key-duplicate parts. `--since DAY`: only files changed on or after that day.
 * @param args positional arguments
 * @param options see `BulkExportOptions`
 * @param io where to write
 * @returns the exit code
 */
export async function runLakeExport(args: string[], options: BulkExportOptions, io: CliIO): Promise<number> {
  const dir = options.out;
  if (dir === undefined) throw new UserError(`--format ${options.format} needs --out DIR`);
  if (options.endpoint !== undefined || options.includeContent === true)
    throw new UserError('--endpoint and --include-content are for --format otlp');
  const since = options.since === undefined ? undefined : sinceDay(options.since);
  const machine = options.machine ?? hostname();
  const format = options.format === 'ndjson' ? 'ndjson' : 'parquet';
  const older = (await otherVersionManifests(dir))[0];
  if (older !== undefined)
    throw new UserError(
      `${dir}: a lake another romp wrote (_romp/${older.name}: layout version ${String(older.version)}, this romp writes ${LAKE_VERSION}; its usage_facts keys are of another form, and a reader would count those responses twice): export into a new folder`,
    );
  const manifest = await readManifest(dir, machine);
  const { units, cleanup } = await exportUnits(args, options, io);
  const redactions = keyed<number>();
  const rows = keyed<number>();
  const report = { format, machine, sessions: 0, skipped: 0, parts: 0, bytes: 0, rows, redactions };
  let held = new Map<string, Array<Record<string, Cell>>>();
  let pending: ManifestFile[] = [];
  let heldSessions = 0;
  const flush = async (): Promise<void> => {
    for (const [where, list] of held) {
      const [entity, date] = where.split('\u0000') as [string, string];
      const part = await writePart(dir, entity, machine, date, list, format);
      if (part === undefined) continue;
      report.parts++;
      report.bytes += part.bytes;
      rows[entity] = (rows[entity] ?? 0) + part.rows;
    }
    for (const f of pending) manifest.set(f.path, f);
    if (pending.length > 0) await writeManifest(dir, machine, manifest);
    held = new Map();
    pending = [];
    heldSessions = 0;
  };
  try {
    for (const unit of units) {
      const sources = [unit.file, ...unit.subagents];
      const now = await Promise.all(sources.map(async (path) => ({ path, ...(await fileIdentity(path)) })));
      const unchanged = now.every((f) => {
        const known = manifest.get(f.path);
        return known !== undefined && known.identity === f.identity && known.exported === f.size;
      });
      const fresh =
        since === undefined || (await Promise.all(sources.map((p) => stat(p)))).some((s) => s.mtimeMs >= since);
      if (unchanged || !fresh) {
        report.skipped++;
        continue;
      }
      const read = await readForExport(unit, options, redactions);
      const sessionRows = exportRows(read);
      const first = sessionRows.sessions[0]?.first_t ?? 0;
      const date = isKnownTime(first) ? new Date(first).toISOString().slice(0, 10) : 'unknown';
      for (const entity of ENTITIES) {
        const where = `${entity}\u0000${date}`;
        const list = held.get(where) ?? [];
        for (const row of sessionRows[entity as Entity]) list.push(row as unknown as Record<string, Cell>);
        held.set(where, list);
      }
      pending.push(...now.map((f) => ({ path: f.path, identity: f.identity, exported: f.size })));
      report.sessions++;
      if (++heldSessions >= SESSIONS_PER_FLUSH) await flush();
    }
    await flush();
  } finally {
    await cleanup();
  }
  if (options.json === true) io.stdout.write(`${JSON.stringify(report)}\n`);
  else
    io.stderr.write(
      `${dir}: ${plural(report.sessions, 'session')} exported (${report.skipped} unchanged), ${plural(report.parts, 'part')}, ${Math.ceil(report.bytes / 1024)} KB${redactionLine(redactions)}\n`,
    );
  return 0;
}

/** `--since` (`dayOption`): epoch ms of the day's start (UTC). */
function sinceDay(value: string): number {
  return Date.parse(`${dayOption('--since', value)}T00:00:00Z`);
}
