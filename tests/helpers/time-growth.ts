/**
 * How the CPU time of a function grows with its input, to test linear time without a wall-clock
 * limit: the median over rounds of the time at `10 n` over the time at `n` (about 10 for linear code,
 * about 100 for quadratic code). Each round repeats the call enough times to take a few milliseconds
 * at `n`, so the clock's resolution and timer noise do not count; `process.cpuUsage` counts this
 * process's CPU time only, so other programs on the machine barely move it.
 */
export function timeGrowth(run: (n: number) => void, n: number, rounds = 5): number {
  const cpu = (size: number, reps: number): number => {
    const start = process.cpuUsage();
    for (let i = 0; i < reps; i++) run(size);
    const used = process.cpuUsage(start);
    return used.user + used.system;
  };
  cpu(n, 1); // warm up: compile the code on both sizes before measuring
  cpu(10 * n, 1);
  let reps = 1;
  while (cpu(n, reps) < 5000) reps *= 2; // 5 ms a round at n
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) ratios.push(cpu(10 * n, reps) / cpu(n, reps));
  ratios.sort((a, b) => a - b);
  return ratios[Math.floor(rounds / 2)] as number;
}

/** Linear code gives about 10; quadratic about 100. Generous, so a busy machine does not fail it. */
export const LINEAR_GROWTH_LIMIT = 30;
