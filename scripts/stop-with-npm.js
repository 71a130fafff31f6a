// Under `npm start` (any npm script), npm starts node as its direct child (the
// scripts `exec` it) and forwards SIGINT and SIGTERM to it. It forwards no
// SIGHUP, and a SIGKILLed npm forwards nothing: node would run on, listening,
// with no one left to stop it. So once npm's process is gone, stop as if npm
// had forwarded SIGTERM.
'use strict';

const CHECK_MS = 500;

/** Watches the parent when npm started this process; a no-op otherwise (a service manager, a test, a shell's `node …`). */
function stopWithNpm(env = process.env) {
  if (env.npm_lifecycle_event === undefined) return;
  const npm = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === npm) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, CHECK_MS);
  watch.unref();
}

module.exports = { stopWithNpm };
