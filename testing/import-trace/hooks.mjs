// Module resolution hook for the import-boundary test: reports every npm package a module graph resolves.
/* global process */
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(result.url);
  if (m) process.stderr.write(`engram-import-trace ${m[1]}\n`);
  return result;
}
