import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';

// The microphone module in real Chromium: its fake capture device plays a 1 kHz tone
// recorded at 48 kHz, and what arrives must be 3200-sample chunks of that tone at 16 kHz.

const TONE_HZ = 1000;

interface Capture {
  chunks: number[][];
  levels: { rms: number; peak: number }[];
  rest: number[];
  error: string | null;
}

function toneWav(file: string, rate: number, seconds: number, amplitude: number) {
  const count = Math.round(rate * seconds);
  const data = Buffer.alloc(count * 2);
  for (let i = 0; i < count; i += 1) {
    data.writeInt16LE(Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * TONE_HZ * i) / rate)), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  writeFileSync(file, Buffer.concat([header, data]));
}

/** Strength of the test tone relative to the whole signal, 0..1. */
function toneShare(samples: number[], rate: number) {
  let re = 0;
  let im = 0;
  let energy = 0;
  samples.forEach((sample, i) => {
    re += sample * Math.cos((2 * Math.PI * TONE_HZ * i) / rate);
    im += sample * Math.sin((2 * Math.PI * TONE_HZ * i) / rate);
    energy += sample * sample;
  });
  const toneEnergy = (2 * (re * re + im * im)) / samples.length;
  return toneEnergy / energy;
}

let workDir: string;
let server: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'parla-microphone-'));
  const wav = path.join(workDir, 'tone.wav');
  toneWav(wav, 48_000, 3, 0.3);
  const outDir = path.join(workDir, 'dist');
  await build({
    root: new URL('./fixtures/microphone', import.meta.url).pathname,
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  server = createServer((request, response) => {
    const name = request.url === '/' ? 'index.html' : (request.url ?? '').slice(1);
    readFile(path.join(outDir, path.normalize(name)))
      .then((body) => {
        const type = name.endsWith('.html') ? 'text/html' : 'text/javascript';
        response.writeHead(200, { 'content-type': type }).end(body);
      })
      .catch(() => response.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchBrowser({ fakeMicrophoneWav: wav });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}, 60_000);

afterAll(async () => {
  await browser.close();
  server.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('microphone capture', () => {
  it('delivers the tone as 16 kHz 3200-sample chunks with its level', async () => {
    await page.evaluate(() => (window as unknown as { startCapture(): Promise<void> }).startCapture());
    await page.waitForFunction(
      () => (window as unknown as { capture: Capture }).capture.chunks.length >= 6,
      null,
      {
        timeout: 10_000,
      },
    );
    await page.evaluate(() => (window as unknown as { stopCapture(): Promise<void> }).stopCapture());
    const capture = await page.evaluate(() => (window as unknown as { capture: Capture }).capture);

    expect(capture.error).toBeNull();
    expect(capture.chunks.every((chunk) => chunk.length === 3200)).toBe(true);
    expect(capture.rest.length).toBeLessThan(3200);
    // Skip the first chunk, where the device and the filter start up.
    const steady = capture.chunks.slice(1, 6).flat();
    expect(toneShare(steady, 16_000)).toBeGreaterThan(0.8);
    const loudest = Math.max(...capture.levels.map((level) => level.peak));
    // No automatic gain: the level is the file's own (amplitude 0.3).
    expect(loudest).toBeGreaterThan(0.2);
    expect(loudest).toBeLessThan(0.4);
  });
});
