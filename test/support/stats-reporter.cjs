// Mocha reporter: the spec reporter's output, plus the suite's counts written as JSON to the file
// named by LOGBOOK_TEST_STATS, so scripts/test.mjs can sum every suite into one closing line.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class StatsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const file = process.env.LOGBOOK_TEST_STATS;
      const { passes = 0, failures = 0, pending = 0 } = runner.stats || {};
      if (file)
        fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, skipped: pending }));
    });
  }
}
module.exports = StatsReporter;
