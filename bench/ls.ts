/**
 * The discovery part of `npm run bench`: `listClaudeSessions` over a real-shaped projects folder of
 * 3,000 sessions in 50 projects, copies of the corpus's sessions of up to 300 KB (`bench/replicate.ts`).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPLICA_VERSION, replicateProjects, smallSessions } from './replicate.ts';
import { listClaudeSessions } from '../src/discover/list-claude-sessions.ts';

/** Builds the folder once (kept in the temp folder) and times one listing. */
export async function benchLs(sessions = 3000): Promise<void> {
  const root = join(tmpdir(), `romp-bench-projects-real-${sessions}-v${REPLICA_VERSION}`);
  await replicateProjects(root, sessions, 50, smallSessions(300_000));
  const start = process.hrtime.bigint();
  const list = await listClaudeSessions({ projectsDir: root });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const subagents = list.reduce((n, s) => n + s.subagents.length, 0);
  console.log(`ls: ${list.length} sessions (${subagents} subagent files attached) listed in ${ms.toFixed(0)} ms`);
}
