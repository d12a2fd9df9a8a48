// Reports every npm package a process loads, as `engram-import-trace <package>` lines on stderr: ES modules
/* global process */
// through a resolution hook, CommonJS through the require resolver. Worker threads inherit `--import`, so what
// they load is reported too.
import Module, { register } from 'node:module';

register('./hooks.mjs', import.meta.url);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolveFilename.apply(this, args);
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (m) process.stderr.write(`engram-import-trace ${m[1]}\n`);
  return file;
};
