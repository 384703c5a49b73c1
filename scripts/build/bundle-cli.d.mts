// Types of the CLI bundling script (bundle-cli.mjs stays plain JavaScript: npm run build runs it).

/** Bundles `<dist>/interfaces/cli/main.js` into `<dist>/bin/`; returns the entry's path. */
export declare function bundleCli(dist: string): Promise<string>;
