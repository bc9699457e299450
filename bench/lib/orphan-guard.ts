// Loaded with --import into every long-running child of the benchmark. The benchmark holds the
// child's stdin open; when it closes (the benchmark ended or was killed), the child shuts down
// the way an operator would stop it, and is forced out if that takes too long.
process.stdin.on('end', () => {
  setTimeout(() => process.exit(1), 10_000).unref();
  process.kill(process.pid, 'SIGTERM');
});
process.stdin.on('error', () => {});
process.stdin.resume();
// Waiting for the pipe must not by itself keep a finished process alive.
// stdin is a socket or pipe with unref() only when the parent gave us one.
(process.stdin as { unref?: () => void }).unref?.();
