#!/usr/bin/env node
import { cli } from './cli.ts';

// a reader that stops early (`romp json | head`) closes the pipe: that ends the output, not in a crash
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await cli(process.argv.slice(2), process);
