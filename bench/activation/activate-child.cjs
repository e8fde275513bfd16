// One activation, FOR TIMING ONLY: requires DIR/extension.js (the 'vscode' module resolves to the
// bench's stand-in) and calls activate() with a context of real folders, then prints what it took:
// wall and CPU time of the require (VS Code's "code loading") and of the whole, and the bundles loaded.
const { performance } = require('node:perf_hooks');
const path = require('node:path');

const dir = process.argv[2];
const storage = process.argv[3];
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const extension = require(path.join(dir, 'extension.js'));
const t1 = performance.now();
const cpu1 = process.cpuUsage(cpu0);
const uri = (p) => ({
  fsPath: p,
  path: p,
  scheme: 'file',
  toString: () => `file://${p}`,
  with: () => uri(p),
});
const memento = () => {
  const m = new Map();
  return {
    get: (k, d) => (m.has(k) ? m.get(k) : d),
    update: async (k, v) => void m.set(k, v),
    keys: () => [...m.keys()],
    setKeysForSync() {},
  };
};
extension.activate({
  subscriptions: [],
  globalState: memento(),
  workspaceState: memento(),
  extensionUri: uri(dir),
  extensionPath: dir,
  globalStorageUri: uri(storage),
  storageUri: uri(storage),
  logUri: uri(storage),
  extensionMode: 1,
  secrets: {
    get: async () => undefined,
    store: async () => {},
    delete: async () => {},
    onDidChange: () => ({ dispose() {} }),
  },
  asAbsolutePath: (p) => path.join(dir, p),
  extension: { id: 'logbook.logbook-agent', packageJSON: {} },
});
const t2 = performance.now();
const cpu2 = process.cpuUsage(cpu0);
const ms = (c) => (c.user + c.system) / 1000;
const loaded = Object.keys(require.cache)
  .filter((f) => f.startsWith(dir + path.sep))
  .map((f) => path.relative(dir, f));
process.stdout.write(
  JSON.stringify({ loadMs: t1 - t0, totalMs: t2 - t0, loadCpuMs: ms(cpu1), totalCpuMs: ms(cpu2), loaded }) +
    '\n',
);
process.exit(0);
