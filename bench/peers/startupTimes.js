// Preloaded (`node -r`) into each process cli.bench.ts times: at load, Node's own start-up (wall since the process began,
// CPU so far); at exit, the whole process. Written as JSON to the file OMS_BENCH_TIMES names.
const { writeFileSync } = require('fs');
const { performance } = require('perf_hooks');

const startedMs = performance.now();
const started = process.cpuUsage();
process.on('exit', () => {
  const all = process.cpuUsage();
  const cpuMs = (u) => (u.user + u.system) / 1000;
  const times = { nodeMs: startedMs, nodeCpuMs: cpuMs(started), wholeMs: performance.now(), wholeCpuMs: cpuMs(all) };
  writeFileSync(process.env.OMS_BENCH_TIMES, JSON.stringify(times));
});
