/**
 * Whether SQL text holds exactly one statement: no `;` outside string literals, quoted names and comments,
 * except at the end (followed only by spaces and comments), and something besides spaces and comments before
 * it. `romp sql` refuses anything else: the binding would run the first statement and drop the rest without a
 * word. One pass over the text (linear in its length).
 * @param sql the text given to `romp sql`
 * @returns `'one'`, `'none'` (empty, or only comments), or `'many'`
 */
export function countStatements(sql: string): 'one' | 'none' | 'many' {
  let seen = false; // a token of a statement since the last `;`
  let ended = false; // a `;` after a statement
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i] as string;
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl === -1 ? sql.length : nl;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? sql.length : close + 1;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (c === ';') {
      if (seen) ended = true;
      seen = false;
      continue;
    }
    if (ended) return 'many';
    seen = true;
    const close = c === "'" || c === '"' || c === '`' ? c : c === '[' ? ']' : undefined;
    if (close !== undefined) {
      // a quoted literal or name: a doubled quote inside is one quote
      let j = i + 1;
      for (;;) {
        const at = sql.indexOf(close, j);
        if (at === -1) return 'one'; // unterminated: SQLite says why when it runs
        if (close !== ']' && sql[at + 1] === close) j = at + 2;
        else {
          i = at;
          break;
        }
      }
    }
  }
  return seen || ended ? 'one' : 'none';
}
