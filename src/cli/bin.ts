#!/usr/bin/env node
import { cli } from './cli.ts';
import { endOnClosedPipe } from './end-on-closed-pipe.ts';

endOnClosedPipe();
process.exitCode = await cli(process.argv.slice(2), process);
