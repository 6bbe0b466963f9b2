/**
 * Whether a record's Claude Code `version` (`"2.1.39"`) is older than the one given. A record without
 * a version, or with one that does not read as numbers, counts as older: the fields that came with
 * later versions are missing from it too.
 * @param version the record's `version` field
 * @param major the version compared with
 * @param minor its minor number
 * @param patch its patch number
 * @returns whether `version` comes before `major.minor.patch`
 */
export function versionBefore(version: unknown, major: number, minor: number, patch: number): boolean {
  if (typeof version !== 'string') return true;
  const [a = 0, b = 0, c = 0] = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  return a !== major ? a < major : b !== minor ? b < minor : c < patch;
}
