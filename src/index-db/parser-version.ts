import { readFileSync } from 'node:fs';

/** Bumped when what romp makes of the same bytes changes without a new package version (tests, branches). */
const REVISION = 6;

/**
 * The parser's version as the index records it per file (`files.parser_version`): romp's package
 * version and {@link REVISION}. A file indexed by another version is read again once.
 */
export const PARSER_VERSION: string = `${(JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version}/${REVISION}`;
