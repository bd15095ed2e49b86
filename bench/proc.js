'use strict';
/**
 * Per-process CPU time and peak RSS from /proc (Linux), read the same way for the Credgate server
 * and the Veramo child, so "CPU per operation" and "peak RSS" compare like with like.
 */
const fs = require('node:fs');

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on every mainstream Linux build). */
const TICKS_PER_SECOND = 100;

/** utime + stime of the process, in ms. */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces; the fields after its closing ')' do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** VmHWM (peak resident set) in MB. */
function peakRssMb(pid) {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Resets VmHWM to the current RSS (writing 5 to clear_refs), so each round reports its own peak. */
function resetPeakRss(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

module.exports = { cpuMs, peakRssMb, resetPeakRss };
