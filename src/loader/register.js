/**
 * `node --import ./src/loader/register.js <file.ts>` (`npm run ts -- <file.ts>`): runs this project's TypeScript (the
 * service, its pricing workers, the tests, the command-line scripts) through hooks.js, a lighter loader than tsx for
 * what the code uses (ES modules importing `.ts` paths). Stack traces point into the `.ts` sources (inline source maps).
 */
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./hooks.js', import.meta.url);
