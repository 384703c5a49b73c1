/** Builds the web console into `<dist>/web`; returns that folder. */
export function buildConsole(dist?: string): Promise<string>;
