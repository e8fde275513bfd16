// FOR TIMING ONLY: a stand-in for the 'vscode' module, so the activation bench can load and activate
// the extension in a bare Node process. Every member of the API's namespaces and classes is a
// function that returns another, and awaits to undefined; nothing behaves like VS Code. Its names
// (names.json beside it) are the API's top-level names, read from @types/vscode by the bench.
const names = require('./names.json');

const handler = {
  get(target, key) {
    if (key === 'then') return (resolve) => resolve?.(undefined);
    if (key === Symbol.toPrimitive) return () => '';
    if (key === Symbol.iterator) return function* () {};
    if (key === 'prototype') return target.prototype;
    if (!(key in target.members)) target.members[key] = member();
    return target.members[key];
  },
  set(target, key, value) {
    target.members[key] = value;
    return true;
  },
  apply: () => member(),
  construct: () => member(),
};

function member() {
  const f = function () {};
  f.members = Object.create(null);
  return new Proxy(f, handler);
}

for (const name of names) module.exports[name] = member();
module.exports.l10n = { t: (s) => (typeof s === 'string' ? s : s.message) };
