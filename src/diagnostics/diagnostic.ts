/**
 * Diagnostics: what the parser tells about its input instead of throwing.
 *
 * Modelled on eemeli/yaml's collected errors and vfile-message's tri-state severity. Every code is
 * explained in `docs/diagnostics.md`.
 */

/** Every diagnostic code the parser emits. */
export type DiagnosticCode =
  | 'FILE_UNREADABLE'
  | 'INVALID_JSON'
  | 'NOT_AN_OBJECT'
  | 'GLUED_RECORDS'
  | 'NUL_BYTES'
  | 'INVALID_UTF8'
  | 'UTF16_FILE'
  | 'BLANK_LINE'
  | 'LINE_TOO_LONG'
  | 'TOO_DEEP'
  | 'NUMBER_REPLACED'
  | 'TOO_MANY_FILES'
  | 'MISSING_UUID'
  | 'DUPLICATE_UUID'
  | 'BAD_TIMESTAMP'
  | 'PHANTOM_PARENT'
  | 'HISTORY_GAP'
  | 'CYCLE'
  | 'COMPACT_PARENT_FALLBACK'
  | 'COMPACT_PARENT_MISSING'
  | 'PRESERVED_RELINK_SKIPPED'
  | 'LEAF_CHECKPOINT_UNRESOLVED'
  | 'SESSION_CLEARED'
  | 'COMMAND_BRANCH'
  | 'FSID_COLLISION'
  | 'FILE_REPLACED'
  | 'BAD_USAGE'
  | 'BAD_REGISTRY_ENTRY'
  | 'HTML_TRUNCATED'
  | 'HTML_SPLIT'
  | 'INDEX_RECREATED';

/** `error`: input lost or unusable; `warning`: recovered by a fallback; `info`: worth knowing. */
export type Severity = 'error' | 'warning' | 'info';

/** The severity of each code. */
export const SEVERITY: Readonly<Record<DiagnosticCode, Severity>> = {
  FILE_UNREADABLE: 'error',
  INVALID_JSON: 'error',
  NOT_AN_OBJECT: 'error',
  GLUED_RECORDS: 'warning',
  NUL_BYTES: 'warning',
  INVALID_UTF8: 'warning',
  UTF16_FILE: 'info',
  BLANK_LINE: 'info',
  LINE_TOO_LONG: 'error',
  TOO_DEEP: 'warning',
  NUMBER_REPLACED: 'warning',
  TOO_MANY_FILES: 'error',
  MISSING_UUID: 'warning',
  DUPLICATE_UUID: 'info',
  BAD_TIMESTAMP: 'warning',
  PHANTOM_PARENT: 'info',
  HISTORY_GAP: 'warning',
  CYCLE: 'warning',
  COMPACT_PARENT_FALLBACK: 'info',
  COMPACT_PARENT_MISSING: 'warning',
  PRESERVED_RELINK_SKIPPED: 'info',
  LEAF_CHECKPOINT_UNRESOLVED: 'warning',
  SESSION_CLEARED: 'info',
  COMMAND_BRANCH: 'info',
  FSID_COLLISION: 'info',
  FILE_REPLACED: 'warning',
  BAD_USAGE: 'warning',
  BAD_REGISTRY_ENTRY: 'warning',
  HTML_TRUNCATED: 'info',
  HTML_SPLIT: 'info',
  INDEX_RECREATED: 'warning',
};

/**
 * One finding about the input, positioned by file and line.
 *
 * `file` is the path as given; `line` is 1-based; `byteOffset` is the offset of the line's first byte.
 */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  file: string;
  line?: number;
  byteOffset?: number;
  uuid?: string;
}

/** Where a diagnostic points: a file, and within it a line, byte offset and uuid when known. */
export interface Place {
  file: string;
  line?: number;
  byteOffset?: number;
  uuid?: string;
}

/** The callback every stage threads through to report a diagnostic. */
export type OnDiagnostic = (diagnostic: Diagnostic) => void;

/**
 * Makes a diagnostic with the code's severity.
 * @param code the diagnostic code
 * @param message one sentence for a person
 * @param place where it points
 * @returns the diagnostic
 */
export function diagnostic(code: DiagnosticCode, message: string, place: Place): Diagnostic {
  return { code, severity: SEVERITY[code], message, ...place };
}

/**
 * Formats a diagnostic as one line: `file:line: severity CODE message`.
 * @param d the diagnostic
 * @returns the line, without a newline
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line === undefined ? d.file : `${d.file}:${d.line}`;
  return `${where}: ${d.severity} ${d.code} ${d.message}`;
}
