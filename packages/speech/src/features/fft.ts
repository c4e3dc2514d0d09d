/** In-place iterative radix-2 complex FFT over separate real and imaginary arrays. */
export class Fft {
  readonly size: number;
  /** Twiddles of every stage side by side: the stage of half-length h holds its h at h - 1. */
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  /** Index pairs the bit reversal swaps, flattened. */
  private readonly swaps: Uint32Array;

  constructor(size: number) {
    if (size < 2 || (size & (size - 1)) !== 0) throw new RangeError('FFT size must be a power of two');
    this.size = size;
    this.cos = new Float64Array(size - 1);
    this.sin = new Float64Array(size - 1);
    for (let half = 1; half < size; half <<= 1) {
      const step = size / (2 * half);
      for (let k = 0; k < half; k++) {
        this.cos[half - 1 + k] = Math.cos((2 * Math.PI * (k * step)) / size);
        this.sin[half - 1 + k] = -Math.sin((2 * Math.PI * (k * step)) / size);
      }
    }
    const bits = Math.log2(size);
    const swaps: number[] = [];
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      if (r > i) swaps.push(i, r);
    }
    this.swaps = Uint32Array.from(swaps);
  }

  /** Transform re/im in place. */
  transform(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    const swaps = this.swaps;
    for (let s = 0; s < swaps.length; s += 2) {
      const i = swaps[s] as number;
      const j = swaps[s + 1] as number;
      const tr = re[i] as number;
      re[i] = re[j] as number;
      re[j] = tr;
      const ti = im[i] as number;
      im[i] = im[j] as number;
      im[j] = ti;
    }
    for (let halfLen = 1; halfLen < n; halfLen <<= 1) {
      const len = halfLen << 1;
      // The first butterfly of each group turns by 1: no multiplications.
      for (let a = 0; a < n; a += len) {
        const b = a + halfLen;
        const xr = re[b] as number;
        const xi = im[b] as number;
        re[b] = (re[a] as number) - xr;
        im[b] = (im[a] as number) - xi;
        re[a] = (re[a] as number) + xr;
        im[a] = (im[a] as number) + xi;
      }
      for (let k = 1; k < halfLen; k++) {
        const wr = this.cos[halfLen - 1 + k] as number;
        const wi = this.sin[halfLen - 1 + k] as number;
        for (let a = k; a < n; a += len) {
          const b = a + halfLen;
          const xr = (re[b] as number) * wr - (im[b] as number) * wi;
          const xi = (re[b] as number) * wi + (im[b] as number) * wr;
          re[b] = (re[a] as number) - xr;
          im[b] = (im[a] as number) - xi;
          re[a] = (re[a] as number) + xr;
          im[a] = (im[a] as number) + xi;
        }
      }
    }
  }
}

/**
 * Power spectrum of a real frame through a half-size complex FFT (the even samples as the
 * real part, the odd ones as the imaginary part), about twice as fast as a full transform.
 */
export class RealPowerSpectrum {
  readonly size: number;
  private readonly half: Fft;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;

  constructor(size: number) {
    this.size = size;
    const h = size / 2;
    this.half = new Fft(h);
    this.re = new Float64Array(h);
    this.im = new Float64Array(h);
    this.cos = new Float64Array(h + 1);
    this.sin = new Float64Array(h + 1);
    for (let k = 0; k <= h; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / size);
      this.sin[k] = Math.sin((2 * Math.PI * k) / size);
    }
  }

  /** Write |X[k]|^2 for k = 0..size/2 of the real input `x` (length `size`) into `out`. */
  compute(x: Float64Array, out: Float64Array): void {
    const h = this.size / 2;
    const { re, im } = this;
    for (let n = 0; n < h; n++) {
      re[n] = x[2 * n] as number;
      im[n] = x[2 * n + 1] as number;
    }
    this.half.transform(re, im);
    for (let k = 0; k <= h; k++) {
      const a = k % h;
      const b = (h - k) % h;
      const zr = re[a] as number;
      const zi = im[a] as number;
      const cr = re[b] as number;
      const ci = -(im[b] as number);
      // Even part E = (Z[k] + conj Z[h-k]) / 2, odd part O = (Z[k] - conj Z[h-k]) / 2i.
      const er = 0.5 * (zr + cr);
      const ei = 0.5 * (zi + ci);
      const or = 0.5 * (zi - ci);
      const oi = -0.5 * (zr - cr);
      const wr = this.cos[k] as number;
      const wi = -(this.sin[k] as number);
      const xr = er + wr * or - wi * oi;
      const xi = ei + wr * oi + wi * or;
      out[k] = xr * xr + xi * xi;
    }
  }
}
