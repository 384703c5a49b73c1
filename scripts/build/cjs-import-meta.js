// Injected into the CommonJS bundle of the CLI (bundle-cli.mjs): what `import.meta.url` becomes
// there. The bundle's own file stands in for every module's, as all of them now live in it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const __engramUrl = require('node:url').pathToFileURL(__filename).href;
