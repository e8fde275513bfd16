// Preloaded into a CLI child process (NODE_OPTIONS="--require <this file>"): counts the bytes it
// reads from a log's segment files and writes the total to $LOGBOOK_TEST_READS_FILE at exit, so a
// test can tell how much of the log a command read.
const fs = require('node:fs');
const path = require('node:path');

const out = process.env.LOGBOOK_TEST_READS_FILE;
const segmentFds = new Set();
let bytes = 0;

const openSync = fs.openSync;
fs.openSync = function (file, ...rest) {
  const fd = openSync.call(this, file, ...rest);
  if (path.basename(path.dirname(String(file))) === 'segments') segmentFds.add(fd);
  return fd;
};
const closeSync = fs.closeSync;
fs.closeSync = function (fd) {
  segmentFds.delete(fd);
  return closeSync.call(this, fd);
};
const readSync = fs.readSync;
fs.readSync = function (fd, ...rest) {
  const n = readSync.call(this, fd, ...rest);
  if (segmentFds.has(fd)) bytes += n;
  return n;
};
if (out) process.on('exit', () => fs.writeFileSync(out, String(bytes)));
