/**
 * The discovery part of `npm run bench`: `listClaudeSessions` over a generated projects folder of 5,000
 * sessions (50 projects, 2–200 KB each, some with subagent files).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listClaudeSessions } from '../src/discover/list-claude-sessions.ts';

function generateProjects(root: string, sessions: number): void {
  const pad = 'x'.repeat(400);
  for (let i = 0; i < sessions; i++) {
    const project = join(root, `-work-project-${i % 50}`);
    mkdirSync(project, { recursive: true });
    const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    const lines: string[] = [];
    const count = 5 + ((i * 7919) % 500);
    for (let n = 0; n < count; n++) {
      const type = n % 2 === 0 ? 'user' : 'assistant';
      lines.push(JSON.stringify({ parentUuid: n === 0 ? null : `${id}-${n - 1}`, type, uuid: `${id}-${n}`, sessionId: id, timestamp: new Date(Date.UTC(2026, 0, 1) + i * 60000 + n * 1000).toISOString(), message: { role: type, content: n === 0 ? `prompt ${i}` : [{ type: 'text', text: pad }] } }));
    }
    lines.push(JSON.stringify({ type: 'custom-title', customTitle: `session ${i}`, sessionId: id }));
    writeFileSync(join(project, `${id}.jsonl`), `${lines.join('\n')}\n`);
    if (i % 10 === 0) {
      mkdirSync(join(project, id, 'subagents'), { recursive: true });
      writeFileSync(join(project, id, 'subagents', 'agent-a1.jsonl'), `${lines[0] ?? ''}\n`);
    }
  }
}

/** Generates the folder once (kept in the temp folder) and times one listing. */
export async function benchLs(sessions = 5000): Promise<void> {
  const root = join(tmpdir(), `romp-bench-projects-${sessions}`);
  if (!existsSync(join(root, '.done'))) {
    generateProjects(root, sessions);
    writeFileSync(join(root, '.done'), '');
  }
  const start = process.hrtime.bigint();
  const list = await listClaudeSessions({ projectsDir: root });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const subagents = list.reduce((n, s) => n + s.subagents.length, 0);
  console.log(`ls: ${list.length} sessions (${subagents} subagent files attached) listed in ${ms.toFixed(0)} ms`);
}
