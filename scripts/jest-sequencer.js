'use strict';
// Orders the files of `npm test` (jest.config.js testSequencer). Jest's own order is right once
// it knows how long each file took (failed first, then longest first, so no worker is left
// running one long file at the end); before that, on a fresh clone or for a new file, it guesses
// by file size. The heavy project's files are the longest we know of: those without a recorded
// time go first, so a first run does not end with one worker on an interop or fault suite.
const Sequencer = require('@jest/test-sequencer').default;

class HeavyFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const heavyUntimed = (t) => t.duration == null && t.context.config.displayName?.name === 'heavy';
    return [...sorted.filter(heavyUntimed), ...sorted.filter((t) => !heavyUntimed(t))];
  }
}

module.exports = HeavyFirstSequencer;
