/** A span of text a rule found, to be masked: `[start, end)` in UTF-16 code units. */
export interface Finding {
  rule: string;
  start: number;
  end: number;
}

const AUTH_HEADER = /\b(?:proxy-)?authorization\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest)\s+)?[^\s"',;]{4,}/gi;
// a name of at most 64 word characters, tested apart: a keyword inside `[a-z0-9_]*` would backtrack quadratically
const ASSIGNMENT = /\b([a-z0-9_]{1,64})\s*[:=]\s*["']?([^\s"',;]{8,})/gi;
const SECRET_NAME = /api[_-]?key|secret|token|password|passwd/i;
const BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/g;

/**
 * romp's own rules over one text, each in linear time: `romp/authorization-header` (an
 * `Authorization:` / `Proxy-Authorization:` header or `authorization=` value, the scheme kept),
 * `romp/private-key` (a `-----BEGIN … PRIVATE KEY-----` block to its `END` line, or to the end of the
 * text when it has none), and `romp/secret-assignment` (the value of `API_KEY=`, `secret: `,
 * `token=`, `password=`… of 8 characters or more, as in a `.env` file or a shell export).
 * @param text the text
 * @returns what they found, in text order per rule
 */
export function structuralFindings(text: string): Finding[] {
  const found: Finding[] = [];
  for (const m of text.matchAll(AUTH_HEADER))
    found.push({ rule: 'romp/authorization-header', start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(ASSIGNMENT)) {
    if (!SECRET_NAME.test(m[1] as string)) continue;
    const value = m[2] as string;
    found.push({
      rule: 'romp/secret-assignment',
      start: m.index + m[0].length - value.length,
      end: m.index + m[0].length,
    });
  }
  let from = 0;
  for (;;) {
    BEGIN.lastIndex = from;
    const m = BEGIN.exec(text);
    if (m === null) break;
    const endMark = text.indexOf('-----END ', m.index + m[0].length);
    const close = endMark < 0 ? -1 : text.indexOf('-----', endMark + 9);
    const end = close < 0 ? text.length : close + 5;
    found.push({ rule: 'romp/private-key', start: m.index, end });
    from = end;
  }
  return found;
}

/**
 * Whether a path names a dotenv file (`.env`, `.env.local`, `prod.env`, `.envrc`): what a tool read
 * from one is dropped whole under `--redact` (`romp/env-file`).
 * @param path a file path from a tool call's input
 * @returns true for such a file
 */
export function isEnvFile(path: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return /^\.env(?:\..*)?$/.test(name) || name.endsWith('.env') || name === '.envrc';
}
