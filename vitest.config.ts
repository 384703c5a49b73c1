import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A poll ends as soon as its condition holds; the long limit only matters on a loaded machine,
    // where a browser may take seconds to render what the test waits for.
    expect: { poll: { timeout: 30_000 } },
  },
});
