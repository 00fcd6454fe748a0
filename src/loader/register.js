/**
 * `node --import ./src/loader/register.js <file.ts>`: runs this project's TypeScript (tests, the service, its pricing
 * workers) through hooks.js, a lighter loader than tsx for what the code uses (ES modules importing `.ts` paths).
 * Stack traces point into the `.ts` sources (inline source maps), as under tsx.
 */
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./hooks.js', import.meta.url);
