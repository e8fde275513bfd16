// FOR TIMING ONLY: a stand-in for the 'vscode' module, so the activation bench can load and activate
// the extension in a bare Node process. Every member of the API's namespaces and classes is a
// function that returns another, and awaits to undefined; nothing behaves like VS Code but the
// configuration, which answers as a fresh VS Code's does: no setting set by the user or a workspace,
// each at the default the package contributes (defaults.json), so activation reads what a new
// window reads. Its names (names.json beside it) are the API's top-level names, read from
// @types/vscode by the bench.
const names = require('./names.json');
const defaults = require('./defaults.json');
const userSetAll = process.env.LOGBOOK_STAND_IN_SETTINGS === 'user';

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

/** VS Code's WorkspaceConfiguration with nothing set: `inspect` names only the default. */
function configuration(section) {
  const full = (key) => (section ? `${section}.${key}` : key);
  return {
    get: (key, fallback) => (full(key) in defaults ? defaults[full(key)] : fallback),
    has: (key) => full(key) in defaults,
    inspect: (key) => {
      if (!(full(key) in defaults)) return undefined;
      const value = defaults[full(key)];
      // LOGBOOK_STAND_IN_SETTINGS=user: as if the user had written every setting, at its default.
      return { key: full(key), defaultValue: value, ...(userSetAll ? { globalValue: value } : {}) };
    },
    update: async () => {},
  };
}

for (const name of names) module.exports[name] = member();
module.exports.l10n = { t: (s) => (typeof s === 'string' ? s : s.message) };
module.exports.workspace.getConfiguration = configuration;
