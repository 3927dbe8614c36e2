/**
 * One scale measurement in a process of its own (`measureScaleApart`): the client that times the
 * queries shares nothing with the other sections' load generators. Prints the result as JSON.
 */
import { type Dialect, measureScale } from './scale.ts';

const dialect = process.argv[2] as Dialect;
const result = await measureScale(dialect, { quick: process.argv.includes('--quick') });
process.stdout.write(JSON.stringify(result));
