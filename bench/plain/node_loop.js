'use strict';
// Plain loops in Node.js, outside cryptobench: the calls the Node driver
// times (drivers/node/driver.js), to check its figures. Prints
// `node <algorithm> <size> <MB/s by the wall clock> <MB/s by CPU time>`: the
// medians of 31 samples of about 20 ms after 1 s of warm-up (V8 compiles the
// loop); CPU time is the process's (process.cpuUsage), as the driver reads it.
// Usage: node node_loop.js [size] [samples] [warm-up ms] (fewer for a smoke run).
//   aes-128-gcm: createCipheriv + setAAD + update + final + getAuthTag per message
//   sha256:      crypto.hash('sha256', buf, 'buffer') (createHash().update().digest() before Node 20.12)
const crypto = require('crypto');

const size = Number(process.argv[2] || 16384);
const samples = Number(process.argv[3] || 31);
const warmupMs = Number(process.argv[4] || 1000);
const key = crypto.randomBytes(16);
const iv = crypto.randomBytes(12);
const aad = crypto.randomBytes(13);
let cur = crypto.randomBytes(size);
let sink;

function gcm(n) {
  for (let i = 0; i < n; i++) {
    const c = crypto.createCipheriv('aes-128-gcm', key, iv, { authTagLength: 16 });
    c.setAAD(aad);
    cur = c.update(cur);
    c.final();
    sink = c.getAuthTag();
  }
}

function sha256(n) {
  if (typeof crypto.hash === 'function') for (let i = 0; i < n; i++) sink = crypto.hash('sha256', cur, 'buffer');
  else for (let i = 0; i < n; i++) sink = crypto.createHash('sha256').update(cur).digest();
}

function measure(f) {
  const elapsed = (n) => {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    f(n);
    const wall = Number(process.hrtime.bigint() - t0);
    const c = process.cpuUsage(c0);
    return [wall, (c.user + c.system) * 1000];
  };
  let n = 1;
  while (elapsed(n)[0] < 2e6) n *= 2; // calibrate to >= 2 ms ...
  n *= 10; // ... then samples of about 20 ms
  const end = Date.now() + warmupMs;
  while (Date.now() < end) f(n); // warm-up
  const wall = [];
  const cpu = [];
  for (let i = 0; i < samples; i++) {
    const [w, c] = elapsed(n);
    wall.push((size * n) / w * 1e3);
    if (c > 0) cpu.push((size * n) / c * 1e3);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return `${median(wall).toFixed(1)} ${median(cpu).toFixed(1)}`;
}

console.log(`node aes-128-gcm ${size} ${measure(gcm)}`);
console.log(`node sha256 ${size} ${measure(sha256)}`);
if (sink === undefined) console.log('#');
